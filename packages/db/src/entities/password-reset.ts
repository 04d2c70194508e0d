import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { PasswordResetRepository } from '../repositories/password-resets.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';

/**
 * A password reset link (`lfr_…`) sent to an account's address. Only the token's sha256 is kept;
 * an account has at most one: asking again replaces it, and using it spends it.
 */
export const PasswordReset = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_resets',
  extends: BaseEntity,
  repository: () => PasswordResetRepository,
  properties: {
    user: () => p.manyToOne(User).deleteRule('cascade').unique(),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
  },
});
export type IPasswordReset = InferEntity<typeof PasswordReset>;
