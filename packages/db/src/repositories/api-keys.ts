import { API_KEY_REFUSAL_REASONS, type ApiKeyRefusalReason, type ApiKeyRevokedReason, DAY_MS } from '@lfk/vocabulary';
import type { IApiKey } from '../entities/api-key.ts';
import { EXPIRED_REASON_SQL, EXPIRED_UNREVOKED_AT_SQL, USABLE_AT_SQL, USABLE_BUT_EXPIRING_SQL, usableAtFilter } from '../api-key-state.ts';
import { isId, newId } from '../ids.ts';
import { BaseRepository } from './base-repository.ts';

/**
 * What verifying a key needs: who it is, whose, its lifetime (judged by `keyStateAt`) and where it
 * may be used from (null: anywhere).
 */
export interface StoredKey {
  id: string;
  workspaceId: string;
  revokedAt: Date | null;
  revokedReason: ApiKeyRevokedReason | null;
  expiresAt: Date | null;
  rolledTo: string | null;
  allowedIps: string[] | null;
}

/** A key whose state a sweep or a report just changed, with what its owners are told. */
export interface ChangedKey {
  id: string;
  workspaceId: string;
  name: string | null;
  prefix: string;
  keyHash: string;
  expiresAt: Date | null;
  rolledTo: string | null;
}

/** Requests that presented a key on one UTC day: accepted, and refused by reason. */
export interface DayUses {
  accepted: number;
  refused: Record<ApiKeyRefusalReason, number>;
}

/** A key's uses on one UTC day (`YYYY-MM-DD`). */
export interface DayCount extends DayUses {
  date: string;
}

/** Where and when a key was last accepted. */
export interface LastUse {
  at: Date;
  ip: string | null;
  userAgent: string | null;
}

/** One key's uses since the last batch: its newest accepted one (if any), and how many of each per UTC day. */
export interface KeyUses {
  last: LastUse | null;
  /** `YYYY-MM-DD` → counts. */
  byDay: ReadonlyMap<string, DayUses>;
}

/** Where each refusal reason is counted in `api_key_usage`. */
const REFUSED_COLUMNS: Record<ApiKeyRefusalReason, string> = {
  revoked: 'refused_revoked',
  expired: 'refused_expired',
  rolled: 'refused_rolled',
  leaked: 'refused_leaked',
  address_not_allowed: 'refused_address',
};
const COUNT_COLUMNS = ['requests', ...API_KEY_REFUSAL_REASONS.map((reason) => REFUSED_COLUMNS[reason])];

type CountRow = Record<string, number | string>;
const dayUsesOf = (row: CountRow): DayUses => ({
  accepted: Number(row.requests),
  refused: Object.fromEntries(API_KEY_REFUSAL_REASONS.map((reason) => [reason, Number(row[REFUSED_COLUMNS[reason]])])) as Record<ApiKeyRefusalReason, number>,
});

interface ChangedRow {
  id: string;
  workspace_id: string;
  name: string | null;
  prefix: string;
  key_hash: string;
  expires_at: Date | string | null;
  rolled_to: string | null;
}

const toDate = (value: Date | string | null) => (value === null ? null : new Date(value));

const changed = (row: ChangedRow): ChangedKey => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  prefix: row.prefix,
  keyHash: row.key_hash,
  expiresAt: toDate(row.expires_at),
  rolledTo: row.rolled_to,
});

const RETURNING = 'returning id, workspace_id, name, prefix, key_hash, expires_at, rolled_to';

/** What a new key is made of; its plaintext is never among it. */
export interface NewApiKey {
  workspaceId: string;
  name: string | null;
  description: string | null;
  allowedIps: string[] | null;
  prefix: string;
  keyHash: string;
  createdBy: string;
  expiresAt: Date | null;
  expiryReminderDays: number | null;
}

export class ApiKeyRepository extends BaseRepository<IApiKey> {
  /** Queues a new active key (created, or a roll's successor) on this repository's EntityManager. */
  issue(key: NewApiKey): IApiKey {
    const { workspaceId, ...rest } = key;
    return this.create({ id: newId('key'), workspace: workspaceId, ...rest, lastUsedAt: null, revokedAt: null, revokedBy: null });
  }

  /**
   * The key with this hash, whatever its state (the caller judges it against its clock with
   * `isUsableAt`, and caches the answer no longer than the key works). On the hot path of every
   * key-authenticated request: one indexed query, no entity hydrated.
   */
  async findByHash(keyHash: string): Promise<StoredKey | null> {
    const rows = await this.em.execute<
      {
        id: string | null;
        workspace_id: string;
        revoked_at: Date | string | null;
        revoked_reason: ApiKeyRevokedReason | null;
        expires_at: Date | string | null;
        rolled_to: string | null;
        allowed_ips: string[] | null;
      }[]
    >(
      'select k.id, k.workspace_id, k.revoked_at, k.revoked_reason, k.expires_at, k.rolled_to, k.allowed_ips ' +
        'from (select ?::text as key_hash) asked left join api_keys k on k.key_hash = asked.key_hash',
      [keyHash],
    );
    const row = rows[0];
    if (!row || row.id === null) return null;
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      revokedAt: toDate(row.revoked_at),
      revokedReason: row.revoked_reason,
      expiresAt: toDate(row.expires_at),
      rolledTo: row.rolled_to,
      allowedIps: row.allowed_ips,
    };
  }

  /** The workspace's key with this id, locked (`findOneForUpdate`) for the rest of the transaction; null as `findInWorkspace`. */
  lockInWorkspace(workspaceId: string, keyId: string): Promise<IApiKey | null> {
    return isId('key', keyId) ? this.findOneForUpdate({ id: keyId, workspace: workspaceId }) : Promise.resolve(null);
  }

  /** The workspace's key with this id; null for another workspace's key, as for a missing one. */
  findInWorkspace(workspaceId: string, keyId: string): Promise<IApiKey | null> {
    return isId('key', keyId) ? this.findOne({ id: keyId, workspace: workspaceId }) : Promise.resolve(null);
  }

  /** Whether the workspace has a key with this id, whatever its state. */
  async existsInWorkspace(workspaceId: string, keyId: string): Promise<boolean> {
    return isId('key', keyId) && (await this.count({ id: keyId, workspace: workspaceId })) > 0;
  }

  /** Keys that work at `now`: unrevoked and not yet expired (a key past its expiry no longer counts, swept or not). */
  countActive(workspaceId: string, now: Date): Promise<number> {
    return this.count({ workspace: workspaceId, ...usableAtFilter(now) });
  }

  /**
   * Revokes the key if it still works, as one conditional update, so two revokes at once
   * record one revocation. The revoked key's hash, or null when nothing was revoked.
   */
  async revoke(keyId: string, workspaceId: string, revokedBy: string, at: Date): Promise<string | null> {
    const revoked = await this.em.execute<{ key_hash: string }[]>(
      `update api_keys set revoked_at = ?, revoked_by_id = ?, revoked_reason = 'revoked'
        where id = ? and workspace_id = ? and ${USABLE_AT_SQL}
        returning key_hash`,
      [at.toISOString(), revokedBy, keyId, workspaceId, at.toISOString()],
    );
    return revoked[0]?.key_hash ?? null;
  }

  /**
   * Revokes every key `userId` made that still works, as lfk's own act (no person revokes them):
   * what an account was given before its address was confirmed. Answers the keys revoked.
   */
  async revokeCreatedBy(userId: string, at: Date): Promise<ChangedKey[]> {
    const rows = await this.em.execute<ChangedRow[]>(
      `update api_keys set revoked_at = ?, revoked_by_id = null, revoked_reason = 'revoked'
        where created_by_id = ? and ${USABLE_AT_SQL} ${RETURNING}`,
      [at.toISOString(), userId, at.toISOString()],
    );
    return rows.map(changed);
  }

  /**
   * A reported leak: the key with this hash is revoked (`leaked`) if it still works. One
   * conditional update, so of several reports of one key exactly one revokes it; null for the others.
   */
  async revokeLeaked(keyHash: string, at: Date): Promise<ChangedKey | null> {
    const rows = await this.em.execute<ChangedRow[]>(
      `update api_keys set revoked_at = ?, revoked_reason = 'leaked'
        where key_hash = ? and ${USABLE_AT_SQL} ${RETURNING}`,
      [at.toISOString(), keyHash, at.toISOString()],
    );
    return rows[0] ? changed(rows[0]) : null;
  }

  /** Whether a key with this hash was ever issued, whatever its state. */
  async existsByHash(keyHash: string): Promise<boolean> {
    return (await this.findByHash(keyHash)) !== null;
  }

  /**
   * Writes down what the clock already decided: keys past their expiry become revoked, `rolled`
   * when a roll's grace ended, `expired` otherwise, revoked at the instant they expired. Each key
   * is returned by exactly one sweep, however many replicas sweep at once.
   */
  async revokeExpired(now: Date, limit = 500): Promise<ChangedKey[]> {
    const rows = await this.em.execute<ChangedRow[]>(
      `update api_keys set revoked_at = expires_at,
              revoked_reason = ${EXPIRED_REASON_SQL}
        where id in (
          select id from api_keys where ${EXPIRED_UNREVOKED_AT_SQL}
           order by expires_at limit ? for update skip locked)
          and revoked_at is null
        ${RETURNING}`,
      [now.toISOString(), limit],
    );
    return rows.map(changed);
  }

  /**
   * Takes the keys due a reminder `days` ahead of their expiry that have not had it (nor a nearer
   * one), marking them reminded in the same statement: a key is returned once, whichever replica asks.
   * Keys in a roll's grace are not reminded: their end was chosen by the roll.
   */
  async takeExpiryReminders(days: number, now: Date, limit = 500): Promise<ChangedKey[]> {
    const until = new Date(now.getTime() + days * DAY_MS);
    const rows = await this.em.execute<ChangedRow[]>(
      `update api_keys set expiry_reminder_days = ?
        where id in (
          select id from api_keys
           where ${USABLE_BUT_EXPIRING_SQL} and rolled_to is null
             and (expiry_reminder_days is null or expiry_reminder_days > ?)
           order by expires_at limit ? for update skip locked)
          and (expiry_reminder_days is null or expiry_reminder_days > ?)
        ${RETURNING}`,
      [days, now.toISOString(), until.toISOString(), days, limit, days],
    );
    return rows.map(changed);
  }

  /**
   * Writes a batch of uses: each key's newest accepted use (time, address, user agent) where it is
   * newer than the one stored, and the per-day counts added. Two statements, in one transaction, so
   * a batch is written whole or not at all, and can then be retried without counting twice.
   */
  async recordUses(uses: ReadonlyMap<string, KeyUses>): Promise<void> {
    if (uses.size === 0) return;
    const rows = [...uses];
    const lasts = rows.flatMap(([id, use]) => (use.last ? [{ id, ...use.last }] : []));
    const counts = rows.flatMap(([keyId, use]) => [...use.byDay].map(([date, day]) => ({ keyId, date, day })));
    await this.em.transactional(async (em) => {
      if (lasts.length > 0) {
        await em.execute(
          `update api_keys as k set last_used_at = v.at, last_used_ip = v.ip, last_used_user_agent = v.ua
             from (values ${lasts.map(() => '(?, ?::timestamptz, ?, ?)').join(', ')}) as v(id, at, ip, ua)
            where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.at)`,
          lasts.flatMap((last) => [last.id, last.at.toISOString(), last.ip, last.userAgent]),
        );
      }
      if (counts.length === 0) return;
      // Only for keys that still exist: a key deleted with its workspace takes its uses with it,
      // rather than failing the batch (and every retry of it) on the foreign key.
      const row = `(?, ?::date${', ?::integer'.repeat(COUNT_COLUMNS.length)})`;
      await em.execute(
        `insert into api_key_usage (key_id, day, ${COUNT_COLUMNS.join(', ')})
         select v.* from (values ${counts.map(() => row).join(', ')}) as v(key_id, day, ${COUNT_COLUMNS.join(', ')})
           join api_keys k on k.id = v.key_id
         on conflict (key_id, day) do update set ${COUNT_COLUMNS.map((c) => `${c} = api_key_usage.${c} + excluded.${c}`).join(', ')}`,
        counts.flatMap((c) => [c.keyId, c.date, c.day.accepted, ...API_KEY_REFUSAL_REASONS.map((reason) => c.day.refused[reason])]),
      );
    });
  }

  /** The days from `from` to `to` (inclusive, `YYYY-MM-DD`) on which the key was presented, oldest first. */
  async usageOf(keyId: string, from: string, to: string): Promise<DayCount[]> {
    const rows = await this.em.execute<(CountRow & { day: string })[]>(
      `select to_char(day, 'YYYY-MM-DD') as day, ${COUNT_COLUMNS.join(', ')} from api_key_usage
        where key_id = ? and day >= ?::date and day <= ?::date order by day`,
      [keyId, from, to],
    );
    return rows.map((row) => ({ date: row.day, ...dayUsesOf(row) }));
  }

  /** Each of these keys' uses on one UTC day (`YYYY-MM-DD`); keys without any are absent. */
  async usageOn(keyIds: readonly string[], date: string): Promise<Map<string, DayUses>> {
    if (keyIds.length === 0) return new Map();
    const rows = await this.em.execute<(CountRow & { key_id: string })[]>(
      `select key_id, ${COUNT_COLUMNS.join(', ')} from api_key_usage
        where day = ?::date and key_id in (${keyIds.map(() => '?').join(', ')})`,
      [date, ...keyIds],
    );
    return new Map(rows.map((row) => [row.key_id, dayUsesOf(row)]));
  }
}
