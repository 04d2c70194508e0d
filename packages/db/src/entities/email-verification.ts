import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '../constants.ts';
import { EmailVerificationRepository } from '../repositories/email-verifications.ts';
import { BaseEntity } from './base.ts';
import { Form } from './form.ts';

/**
 * A link that proves a form's `notify_email` reads its mail. Only the token's sha256 is kept.
 * A form has at most one live verification: making a new one deletes the earlier ones.
 */
export const EmailVerification = defineEntity({
  name: 'EmailVerification',
  tableName: 'email_verifications',
  extends: BaseEntity,
  repository: () => EmailVerificationRepository,
  properties: {
    form: () => p.manyToOne(Form).deleteRule('cascade'),
    email: p.string().length(TEXT_LIMITS.email),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['form'] }],
});
export type IEmailVerification = InferEntity<typeof EmailVerification>;
