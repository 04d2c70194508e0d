import { BaseRepository } from './base-repository.ts';
import type { IUser } from '../entities/user.ts';
import { newId } from '../ids.ts';

/**
 * SQL: whether the account `u` (the alias of a `users` row) has a second factor, an authenticator
 * app or a passkey. The one statement of the rule, for every query that asks it.
 */
export const HAS_SECOND_FACTOR = '(u.totp_enabled_at is not null or exists (select 1 from passkeys k where k.user_id = u.id))';

export class UserRepository extends BaseRepository<IUser> {
  /** Queues a new account; the unique email index refuses a taken address at flush. */
  register(email: string, name: string | null, passwordHash: string): IUser {
    return this.create({ id: newId('usr'), email, name, passwordHash });
  }

  /** The addresses of these accounts, by id; a deleted account is not in it. */
  async emailsOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.em.execute<{ id: string; email: string }[]>(`select id, email from users where id in (${ids.map(() => '?').join(', ')})`, [...ids]);
    return new Map(rows.map((row) => [row.id, row.email]));
  }

  /** The account with this (lower-cased) email, with its password hash, which is otherwise never loaded. */
  findForLogin(email: string) {
    return this.findOne({ email }, { populate: ['passwordHash'] });
  }

  /** The account with this id, with its password hash: to check a password a signed-in person gives again. */
  findWithPassword(userId: string) {
    return this.findOneOrFail({ id: userId }, { populate: ['passwordHash'] });
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await this.em.execute('update users set password_hash = ? where id = ?', [passwordHash, userId]);
  }

  /**
   * The person proved they read mail at their address (a reset link, an invitation): it is
   * verified, if it was not. True when this is the first time.
   */
  async markEmailVerified(userId: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>('update users set email_verified_at = ? where id = ? and email_verified_at is null returning id', [
      at,
      userId,
    ]);
    return rows.length > 0;
  }

  /** Whether the account has confirmed its address; false for an account that no longer exists. */
  async hasVerifiedEmail(userId: string): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>('select id from users where id = ? and email_verified_at is not null', [userId]);
    return rows.length > 0;
  }

  /** Deletes the account: its sessions, memberships and links go with it (on delete cascade); its keys stay, unattributed. */
  async deleteNow(userId: string): Promise<void> {
    await this.em.execute('delete from users where id = ?', [userId]);
  }

  /** Whether the account has a second factor (TOTP or a passkey); false for one that no longer exists. */
  async hasSecondFactor(userId: string): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(`select id from users u where id = ? and ${HAS_SECOND_FACTOR}`, [userId]);
    return rows.length > 0;
  }

  /** The account's TOTP secret, sealed, and since when it is on; null while TOTP is off. */
  async totpOf(userId: string): Promise<{ secretSealed: string; enabledAt: Date } | null> {
    const rows = await this.em.execute<{ totp_secret_sealed: string | null; totp_enabled_at: string | Date }[]>(
      'select totp_secret_sealed, totp_enabled_at from users where id = ? and totp_enabled_at is not null',
      [userId],
    );
    const row = rows[0];
    return row?.totp_secret_sealed ? { secretSealed: row.totp_secret_sealed, enabledAt: new Date(row.totp_enabled_at) } : null;
  }

  /**
   * Takes a TOTP code's time step: true once per step, and never for a step at or before the last
   * one taken. One statement, so of two requests with one code, one gets it.
   */
  async takeTotpStep(userId: string, step: number): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update users set totp_last_step = ? where id = ? and totp_enabled_at is not null and (totp_last_step is null or totp_last_step < ?) returning id',
      [step, userId, step],
    );
    return rows.length > 0;
  }

  /** TOTP is on with this (sealed) secret, its confirming code's step taken. False when it already was on. */
  async enableTotp(userId: string, secretSealed: string, step: number, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update users set totp_secret_sealed = ?, totp_enabled_at = ?, totp_last_step = ? where id = ? and totp_enabled_at is null returning id',
      [secretSealed, at, step, userId],
    );
    return rows.length > 0;
  }

  /** TOTP is off, its secret gone. False when it was not on. */
  async disableTotp(userId: string): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update users set totp_secret_sealed = null, totp_enabled_at = null, totp_last_step = null where id = ? and totp_enabled_at is not null returning id',
      [userId],
    );
    return rows.length > 0;
  }

  findByEmail(email: string) {
    return this.findOne({ email });
  }
}
