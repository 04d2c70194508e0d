import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { PasskeyRepository } from '../repositories/passkeys.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';

/**
 * A passkey (a WebAuthn credential) of an account: a second factor, and a sign-in without a
 * password. Its public key is kept, never a secret; `counter` is the authenticator's signature
 * count, which may only go up.
 */
export const Passkey = defineEntity({
  name: 'Passkey',
  tableName: 'passkeys',
  extends: BaseEntity,
  repository: () => PasskeyRepository,
  properties: {
    user: () => p.manyToOne(User).deleteRule('cascade'),
    /** The credential's id, base64url, as authenticators name it. */
    credentialId: p.string().length(1400).unique(),
    /** The COSE public key, base64url. */
    publicKey: p.text(),
    counter: p.bigint('number'),
    transports: p.json<string[]>(),
    name: p.string().length(TEXT_LIMITS.passkeyName),
    lastUsedAt: p.datetime().nullable(),
  },
  indexes: [{ properties: ['user', 'id'] }],
});
export type IPasskey = InferEntity<typeof Passkey>;
