import type { IPasswordReset } from '../entities/password-reset.ts';
import { newId } from '../ids.ts';
import { BaseRepository } from './base-repository.ts';

/** The reset link a token opened: whose account, and until when it works. */
export interface ResetLink {
  userId: string;
  email: string;
  expiresAt: Date;
}

export class PasswordResetRepository extends BaseRepository<IPasswordReset> {
  /**
   * Gives the account at `email` this link in place of any earlier one (one statement, so two
   * requests at once leave one link). False when no account uses the address: nothing is written.
   */
  async replaceFor(email: string, tokenHash: string, expiresAt: Date, now: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      `insert into password_resets (id, user_id, token_hash, expires_at, created_at)
       select ?, id, ?, ?, ? from users where email = ?
       on conflict (user_id) do update
         set id = excluded.id, token_hash = excluded.token_hash, expires_at = excluded.expires_at, created_at = excluded.created_at
       returning id`,
      [newId('pwr'), tokenHash, expiresAt, now, email],
    );
    return rows.length > 0;
  }

  /** The link behind this token hash, unchanged; null when there is none (used, replaced, never made). */
  async read(tokenHash: string): Promise<ResetLink | null> {
    const rows = await this.em.execute<{ user_id: string; email: string; expires_at: string | Date }[]>(
      'select r.user_id, u.email, r.expires_at from password_resets r join users u on u.id = r.user_id where r.token_hash = ?',
      [tokenHash],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, email: row.email, expiresAt: new Date(row.expires_at) } : null;
  }

  /**
   * Spends the link: deletes it and answers what it was, or null when it is already gone. One
   * statement, so of two uses at once exactly one gets the link.
   */
  async spend(tokenHash: string): Promise<ResetLink | null> {
    const rows = await this.em.execute<{ user_id: string; email: string; expires_at: string | Date }[]>(
      `with spent as (delete from password_resets where token_hash = ? returning user_id, expires_at)
       select s.user_id, u.email, s.expires_at from spent s join users u on u.id = s.user_id`,
      [tokenHash],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, email: row.email, expiresAt: new Date(row.expires_at) } : null;
  }
}
