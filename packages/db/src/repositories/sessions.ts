import { BaseRepository } from './base-repository.ts';
import type { ISession } from '../entities/session.ts';
import { newId } from '../ids.ts';

/** What checking a session needs, read without hydrating an entity: it runs on every signed-in request. */
export interface StoredSession {
  id: string;
  userId: string;
  expiresAt: Date;
  revoked: boolean;
}

export class SessionRepository extends BaseRepository<ISession> {
  /** Queues a new session on this repository's EntityManager; only its token's hash is stored. */
  start(userId: string, tokenHash: string, expiresAt: Date): void {
    this.create({ id: newId('ses'), user: userId, tokenHash, expiresAt, revokedAt: null });
  }

  async findByTokenHash(tokenHash: string): Promise<StoredSession | null> {
    const rows = await this.em.execute<{ id: string; user_id: string; expires_at: string | Date; revoked_at: unknown }[]>(
      'select id, user_id, expires_at, revoked_at from sessions where token_hash = ?',
      [tokenHash],
    );
    const row = rows[0];
    return row ? { id: row.id, userId: row.user_id, expiresAt: new Date(row.expires_at), revoked: row.revoked_at !== null } : null;
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

  async revoke(sessionId: string, at = new Date()): Promise<void> {
    await this.nativeUpdate({ id: sessionId }, { revokedAt: at });
  }
}
