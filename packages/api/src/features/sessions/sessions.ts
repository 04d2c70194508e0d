import { DeviceLogin, type SeenFrom, Session } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { SESSION_TTL_MS } from '../../credentials/authenticate.ts';
import { generateSessionToken } from '../../credentials/tokens.ts';

/**
 * Queues a new session; the plaintext token goes to the caller once and is never stored. A session
 * handed out by another session (`issuedBy`: a device's, approved from the dashboard) is no fresher
 * than that one: sudo mode's clock starts when the person last proved who they are, not now.
 */
export function startSession(em: EntityManager, userId: string, now: Date, from?: SeenFrom, issuedBy?: { authenticatedAt: Date }) {
  const { token, hash } = generateSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const authenticatedAt = issuedBy && issuedBy.authenticatedAt < now ? issuedBy.authenticatedAt : now;
  em.getRepository(Session).start(userId, hash, expiresAt, from, now, authenticatedAt);
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
