import { DeviceLogin, type SeenFrom, Session } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { SESSION_TTL_MS } from '../../credentials/authenticate.ts';
import { generateSessionToken } from '../../credentials/tokens.ts';

/** Queues a new session; the plaintext token goes to the caller once and is never stored. */
export function startSession(em: EntityManager, userId: string, now: Date, from?: SeenFrom) {
  const { token, hash } = generateSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  em.getRepository(Session).start(userId, hash, expiresAt, from, now);
  return { token, expiresAt };
}

/**
 * Signs the person out everywhere (a password reset) or everywhere but `keep` (this request's
 * session, on a password change), sign-ins a device has not collected yet included.
 */
export async function signOutEverywhere(em: EntityManager, userId: string, now: Date, keep?: string): Promise<void> {
  const sessions = em.getRepository(Session);
  if (keep) await sessions.revokeOthers(userId, keep, now);
  else await sessions.revokeAll(userId, now);
  await em.getRepository(DeviceLogin).denyApprovedOf(userId);
}
