import { AuthChallenge, Passkey } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Services } from '../../context.ts';
import { generateChallengeToken } from '../../credentials/tokens.ts';
import { ApiError } from '../../errors.ts';
import { iso } from '../../infrastructure/wire.ts';
import { factorsOf } from './factors.ts';
import { assertionOptions } from './passkeys.ts';

/** How long a sign-in waits for its second factor, or a passkey for its assertion. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * The password was right and the account has a second factor: no session yet, but a challenge to
 * complete with it, as the error the sign-in answers (`401 second_factor_required`); with passkeys,
 * the options for one of them. Null for an account without one: the password is enough.
 */
export async function secondFactorRequired(em: EntityManager, services: Pick<Services, 'now' | 'publicUrl'>, userId: string): Promise<ApiError | null> {
  const factors = await factorsOf(em, userId);
  if (factors.length === 0) return null;
  const now = services.now();
  const { token, hash } = generateChallengeToken();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  const passkeyOptions = factors.includes('passkey') ? await assertionOptions(services, await em.getRepository(Passkey).credentialsOf(userId)) : null;
  await em
    .getRepository(AuthChallenge)
    .open({ purpose: 'second_factor', userId, tokenHash: hash, webauthnChallenge: passkeyOptions?.challenge ?? null, expiresAt }, now);
  return new ApiError('second_factor_required', {
    secondFactor: { challenge: token, expires_at: iso(expiresAt), factors, ...(passkeyOptions ? { passkey_options: passkeyOptions } : {}) },
  });
}
