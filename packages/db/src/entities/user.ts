import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { UserRepository } from '../repositories/users.ts';
import { UpdatableEntity } from './base.ts';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  extends: UpdatableEntity,
  repository: () => UserRepository,
  properties: {
    email: p.string().length(TEXT_LIMITS.email).unique(),
    name: p.string().length(TEXT_LIMITS.userName).nullable(),
    passwordHash: p.text().hidden().lazy(),
    /** When the person proved they read mail at `email` (a sign-up link, or an invitation accepted); null until then. */
    emailVerifiedAt: p.datetime().nullable(),
    /** The authenticator app's shared secret, sealed under `LFK_SECRET_KEY`; null while TOTP is off. */
    totpSecretSealed: p.text().nullable().hidden().lazy(),
    totpEnabledAt: p.datetime().nullable(),
    /** The last TOTP time step a code was accepted for: a code is taken once, and no earlier one after it. */
    totpLastStep: p.bigint('number').nullable(),
  },
});
export type IUser = InferEntity<typeof User>;
