import type { IPasskey } from '../entities/passkey.ts';
import { newId } from '../ids.ts';
import { BaseRepository } from './base-repository.ts';

/** A passkey as lfk checks an assertion with it. */
export interface StoredPasskey {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** A passkey as its person's list shows it. */
export interface PasskeyReading {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

type PasskeyRow = { id: string; name: string; created_at: string | Date; last_used_at: string | Date | null };
const readingOf = (r: PasskeyRow): PasskeyReading => ({
  id: r.id,
  name: r.name,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : new Date(r.last_used_at),
});

export class PasskeyRepository extends BaseRepository<IPasskey> {
  /** Stores a registered passkey, as its person's list will show it; the unique credential id refuses one registered twice. */
  async add(userId: string, passkey: Omit<StoredPasskey, 'id' | 'userId'> & { name: string }, now: Date): Promise<PasskeyReading> {
    const id = newId('pkey');
    await this.em.execute(
      'insert into passkeys (id, user_id, credential_id, public_key, counter, transports, name, last_used_at, created_at) ' +
        'values (?, ?, ?, ?, ?, ?, ?, null, ?)',
      [id, userId, passkey.credentialId, passkey.publicKey, passkey.counter, JSON.stringify(passkey.transports), passkey.name, now],
    );
    return { id, name: passkey.name, createdAt: now, lastUsedAt: null };
  }

  /** The person's passkeys, oldest first. */
  async listOf(userId: string): Promise<PasskeyReading[]> {
    const rows = await this.em.execute<PasskeyRow[]>('select id, name, created_at, last_used_at from passkeys where user_id = ? order by id', [userId]);
    return rows.map(readingOf);
  }

  /** The credentials of the person's passkeys, for an authenticator to choose from. */
  async credentialsOf(userId: string): Promise<StoredPasskey[]> {
    return this.readWhere('user_id = ?', [userId]);
  }

  async findByCredentialId(credentialId: string): Promise<StoredPasskey | null> {
    return (await this.readWhere('credential_id = ?', [credentialId]))[0] ?? null;
  }

  /**
   * Records a use: the authenticator's counter must have gone up since the last (a counter that
   * stays at 0 is an authenticator that keeps none). False when it did not: a cloned authenticator,
   * or a replay, or the passkey was removed meanwhile.
   */
  async used(id: string, counter: number, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      'update passkeys set counter = ?, last_used_at = ? where id = ? and (counter < ? or (counter = 0 and ? = 0)) returning id',
      [counter, at, id, counter, counter],
    );
    return rows.length > 0;
  }

  /** Renames one of the person's passkeys: as their list shows it now, or null when it is not theirs. */
  async rename(userId: string, id: string, name: string): Promise<PasskeyReading | null> {
    const rows = await this.em.execute<PasskeyRow[]>('update passkeys set name = ? where id = ? and user_id = ? returning id, name, created_at, last_used_at', [
      name,
      id,
      userId,
    ]);
    return rows[0] ? readingOf(rows[0]) : null;
  }

  /** Removes one of the person's passkeys; its name, or null when it is not theirs. */
  async remove(userId: string, id: string): Promise<string | null> {
    const rows = await this.em.execute<{ name: string }[]>('delete from passkeys where id = ? and user_id = ? returning name', [id, userId]);
    return rows[0]?.name ?? null;
  }

  async countOf(userId: string): Promise<number> {
    const rows = await this.em.execute<{ n: string | number }[]>('select count(*) as n from passkeys where user_id = ?', [userId]);
    return Number(rows[0]?.n ?? 0);
  }

  private async readWhere(where: string, params: unknown[]): Promise<StoredPasskey[]> {
    const rows = await this.em.execute<
      { id: string; user_id: string; credential_id: string; public_key: string; counter: string | number; transports: string[] | string }[]
    >(`select id, user_id, credential_id, public_key, counter, transports from passkeys where ${where} order by id`, params);
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      credentialId: r.credential_id,
      publicKey: r.public_key,
      counter: Number(r.counter),
      transports: typeof r.transports === 'string' ? (JSON.parse(r.transports) as string[]) : r.transports,
    }));
  }
}
