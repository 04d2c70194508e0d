import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { RecoveryCodeRepository } from '../repositories/recovery-codes.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';

/**
 * One of an account's recovery codes: a second factor for when the others are lost. Only a keyed
 * hash of the code is kept (an HMAC under `LFK_SECRET_KEY`, so the table alone cannot be guessed
 * against); using it spends it.
 */
export const RecoveryCode = defineEntity({
  name: 'RecoveryCode',
  tableName: 'recovery_codes',
  extends: BaseEntity,
  repository: () => RecoveryCodeRepository,
  properties: {
    user: () => p.manyToOne(User).deleteRule('cascade'),
    codeHash: p.string().length(64),
    usedAt: p.datetime().nullable(),
  },
  uniques: [{ properties: ['user', 'codeHash'] }],
});
export type IRecoveryCode = InferEntity<typeof RecoveryCode>;
