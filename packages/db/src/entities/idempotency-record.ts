import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { IdempotencyRecordRepository } from '../repositories/idempotency-records.ts';
import { BaseEntity } from './base.ts';

/**
 * A request made with an `Idempotency-Key`, and the response it got. `scope` is a hash of the
 * caller (a key, a user, or an IP for anonymous callers) and what the write lands in (a form, a
 * workspace), so two callers never share keys; the fingerprint names the operation and its
 * input, so a reused key with another request is caught.
 */
export const IdempotencyRecord = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_records',
  extends: BaseEntity,
  repository: () => IdempotencyRecordRepository,
  properties: {
    scope: p.string().length(TEXT_LIMITS.idempotencyScope),
    key: p.string().length(TEXT_LIMITS.idempotencyKey),
    fingerprint: p.string().length(64),
    responseBody: p.json<unknown>().columnType('json'),
    expiresAt: p.datetime(),
  },
  uniques: [{ properties: ['scope', 'key'] }],
  indexes: [{ properties: ['expiresAt'] }],
});
export type IIdempotencyRecord = InferEntity<typeof IdempotencyRecord>;
