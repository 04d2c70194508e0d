import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { EmailVerificationRepository } from '../repositories/email-verifications.ts';
import { BaseEntity } from './base.ts';
import { Form } from './form.ts';
import { User } from './user.ts';

/**
 * A link that proves an address reads its mail: one of a form's `notify_emails`, or an account's own
 * address at sign-up (exactly one of `form` and `user`). Only the token's sha256 is kept. A form's
 * address or an account has at most one live link: making a new one deletes the earlier ones.
 */
export const EmailVerification = defineEntity({
  name: 'EmailVerification',
  tableName: 'email_verifications',
  extends: BaseEntity,
  repository: () => EmailVerificationRepository,
  properties: {
    form: () => p.manyToOne(Form).nullable().deleteRule('cascade'),
    user: () => p.manyToOne(User).nullable().deleteRule('cascade'),
    email: p.string().length(TEXT_LIMITS.email),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['form'] }, { properties: ['user'] }],
  checks: [{ name: 'email_verifications_one_subject_check', expression: '(form_id is null) <> (user_id is null)' }],
});
export type IEmailVerification = InferEntity<typeof EmailVerification>;
