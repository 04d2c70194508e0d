import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { RateLimitBucketRepository } from '../repositories/rate-limit-buckets.ts';

/**
 * One subject's standing under one security limit, shared by every replica on the database.
 * The limit is a GCRA bucket: `tatMs` is the theoretical arrival time (epoch milliseconds) of the
 * next request; a subject is over its limit while that lies more than the window minus one interval
 * ahead. A row whose time has passed holds a full bucket, so it can be swept.
 */
export const RateLimitBucket = defineEntity({
  name: 'RateLimitBucket',
  tableName: 'rate_limit_buckets',
  repository: () => RateLimitBucketRepository,
  properties: {
    limitName: p.string().primary().length(32),
    subject: p.string().primary().length(320),
    tatMs: p.bigint('number'),
  },
  indexes: [{ properties: ['tatMs'] }],
});
export type IRateLimitBucket = InferEntity<typeof RateLimitBucket>;
