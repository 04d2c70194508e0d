import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { AUTH_CHALLENGE_PURPOSES } from '@lfk/vocabulary';
import { AuthChallengeRepository } from '../repositories/auth-challenges.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';

/**
 * An authentication waiting for its second half, for a few minutes:
 * - `second_factor`: a password that passed, for an account with a second factor; the caller holds
 *   the challenge token (`lf2_…`, only its sha256 kept) and completes it with a code or a passkey;
 * - `passkey_sign_in`: a sign-in with a passkey and no password (no account until the assertion names one);
 * - `passkey_registration` and `totp_enrolment`: a factor being added by a signed-in person, not in
 *   force until confirmed (an enrolment abandoned halfway expires with its row: never half-enrolled);
 * - `reauthentication`: a signed-in person confirming who they are with a passkey (sudo mode).
 * `webauthn_challenge` is what the authenticator must sign; `secret_sealed` the TOTP secret on trial.
 */
export const AuthChallenge = defineEntity({
  name: 'AuthChallenge',
  tableName: 'auth_challenges',
  extends: BaseEntity,
  repository: () => AuthChallengeRepository,
  properties: {
    purpose: p.enum(AUTH_CHALLENGE_PURPOSES),
    tokenHash: p.string().length(64).nullable().unique(),
    user: () => p.manyToOne(User).nullable().deleteRule('cascade'),
    webauthnChallenge: p.string().length(128).nullable(),
    secretSealed: p.text().nullable(),
    expiresAt: p.datetime(),
  },
  indexes: [{ properties: ['user', 'purpose'] }, { properties: ['expiresAt'] }],
});
export type IAuthChallenge = InferEntity<typeof AuthChallenge>;
