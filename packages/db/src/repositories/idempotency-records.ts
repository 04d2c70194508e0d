import { BaseRepository } from './base-repository.ts';
import type { IIdempotencyRecord } from '../entities/idempotency-record.ts';
import { newId } from '../ids.ts';

export interface IdempotencyClaim {
  scope: string;
  key: string;
  fingerprint: string;
  expiresAt: Date;
}

/** The request that holds a key already, and what it answered. */
export interface StoredIdempotentResponse {
  fingerprint: string;
  responseBody: unknown;
}

export class IdempotencyRecordRepository extends BaseRepository<IIdempotencyRecord> {
  /**
   * Takes `scope` + `key` for this request unless a live record holds it (an expired one is
   * dropped first). The new record's id, or null when the key is taken. Inserted before the
   * write runs, so a concurrent retry waits on this row until the write commits or rolls back.
   */
  async claim({ scope, key, fingerprint, expiresAt }: IdempotencyClaim, now: Date): Promise<string | null> {
    await this.em.execute('delete from idempotency_records where scope = ? and key = ? and expires_at <= ?', [scope, key, now.toISOString()]);
    const id = newId('idem');
    const inserted = await this.em.execute<{ id: string }[]>(
      `insert into idempotency_records (id, scope, key, fingerprint, response_body, created_at, expires_at)
       values (?, ?, ?, ?, 'null', ?, ?) on conflict (scope, key) do nothing returning id`,
      [id, scope, key, fingerprint, now.toISOString(), expiresAt.toISOString()],
    );
    return inserted.length === 0 ? null : id;
  }

  async findStored(scope: string, key: string): Promise<StoredIdempotentResponse | null> {
    const [existing] = await this.em.execute<{ fingerprint: string; response_body: unknown }[]>(
      'select fingerprint, response_body from idempotency_records where scope = ? and key = ?',
      [scope, key],
    );
    if (!existing) return null;
    const body = existing.response_body;
    return { fingerprint: existing.fingerprint, responseBody: typeof body === 'string' ? JSON.parse(body) : body };
  }

  async storeResponse(id: string, responseBody: unknown): Promise<void> {
    await this.em.execute('update idempotency_records set response_body = ? where id = ?', [JSON.stringify(responseBody), id]);
  }

  /** Drops records past their lifetime. */
  async sweep(now: Date): Promise<void> {
    await this.em.execute('delete from idempotency_records where expires_at <= ?', [now.toISOString()]);
  }
}
