import { BaseRepository } from './base-repository.ts';
import type { ISession } from '../entities/session.ts';
import { newId } from '../ids.ts';

/** What checking a session needs, read without hydrating an entity: it runs on every signed-in request. */
export interface StoredSession {
  id: string;
  userId: string;
  expiresAt: Date;
  revoked: boolean;
  lastSeenAt: Date | null;
  /** When its person last proved who they are: sudo mode's clock. */
  authenticatedAt: Date;
}

/** Where a request came from, as a session keeps it: cut to fit where the request was read. */
export interface SeenFrom {
  ip: string | null;
  userAgent: string | null;
}

/** One of a person's sessions, as their list shows it. */
export interface SessionReading {
  id: string;
  createdAt: Date;
  lastSeenAt: Date | null;
  ip: string | null;
  userAgent: string | null;
}

export class SessionRepository extends BaseRepository<ISession> {
  /**
   * Queues a new session on this repository's EntityManager; only its token's hash is stored.
   * `authenticatedAt` is when its person last proved who they are: now for a sign-in, earlier for
   * a session another session hands out (a device's).
   */
  start(userId: string, tokenHash: string, expiresAt: Date, from: SeenFrom = { ip: null, userAgent: null }, now = new Date(), authenticatedAt = now): void {
    this.create({
      id: newId('ses'),
      user: userId,
      tokenHash,
      expiresAt,
      revokedAt: null,
      createdAt: now,
      authenticatedAt,
      lastSeenAt: now,
      ip: from.ip,
      userAgent: from.userAgent,
    });
  }

  async findByTokenHash(tokenHash: string): Promise<StoredSession | null> {
    const rows = await this.em.execute<
      { id: string; user_id: string; expires_at: string | Date; revoked_at: unknown; last_seen_at: string | Date | null; authenticated_at: string | Date }[]
    >('select id, user_id, expires_at, revoked_at, last_seen_at, authenticated_at from sessions where token_hash = ?', [tokenHash]);
    const row = rows[0];
    return row
      ? {
          id: row.id,
          userId: row.user_id,
          expiresAt: new Date(row.expires_at),
          revoked: row.revoked_at !== null,
          lastSeenAt: row.last_seen_at === null ? null : new Date(row.last_seen_at),
          authenticatedAt: new Date(row.authenticated_at),
        }
      : null;
  }

  /** Its person proved who they are again (a password, a code, a passkey): sudo mode starts over. */
  async reauthenticated(sessionId: string, at: Date): Promise<void> {
    await this.em.execute('update sessions set authenticated_at = ? where id = ?', [at, sessionId]);
  }

  /** Writes when and where the session was last used. */
  async seen(sessionId: string, at: Date, from: SeenFrom): Promise<void> {
    await this.em.execute('update sessions set last_seen_at = ?, ip = ?, user_agent = ? where id = ?', [at, from.ip, from.userAgent, sessionId]);
  }

  /** The person's sessions that still work (not revoked, not expired), newest first. */
  async activeOf(userId: string, now: Date): Promise<SessionReading[]> {
    const rows = await this.em.execute<
      { id: string; created_at: string | Date; last_seen_at: string | Date | null; ip: string | null; user_agent: string | null }[]
    >(
      'select id, created_at, last_seen_at, ip, user_agent from sessions ' +
        'where user_id = ? and revoked_at is null and expires_at > ? order by id desc limit 500',
      [userId, now],
    );
    return rows.map((r) => ({
      id: r.id,
      createdAt: new Date(r.created_at),
      lastSeenAt: r.last_seen_at === null ? null : new Date(r.last_seen_at),
      ip: r.ip,
      userAgent: r.user_agent,
    }));
  }

  /** Revokes one of the person's sessions; false when it is not theirs, or not active. */
  async revokeOwn(userId: string, sessionId: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update sessions set revoked_at = ? where id = ? and user_id = ? and revoked_at is null and expires_at > ? returning id',
      [at, sessionId, userId, at],
    );
    return rows.length > 0;
  }

  async extend(sessionId: string, expiresAt: Date): Promise<void> {
    await this.em.execute('update sessions set expires_at = ? where id = ?', [expiresAt.toISOString(), sessionId]);
  }

  /** Signs the person out everywhere but `keep` (this request's session); answers how many were signed out. */
  async revokeOthers(userId: string, keep: string, at: Date): Promise<number> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update sessions set revoked_at = ? where user_id = ? and id <> ? and revoked_at is null returning id',
      [at, userId, keep],
    );
    return rows.length;
  }

  /** Signs the person out everywhere (a password reset). */
  async revokeAll(userId: string, at: Date): Promise<void> {
    await this.em.execute('update sessions set revoked_at = ? where user_id = ? and revoked_at is null', [at, userId]);
  }

  async revoke(sessionId: string, at = new Date()): Promise<void> {
    await this.nativeUpdate({ id: sessionId }, { revokedAt: at });
  }
}
