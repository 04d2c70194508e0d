import { ApiKey, type Database, type KeyUses, TEXT_LIMITS } from '@lfk/db';
import type { Log } from '../log.ts';

const DAY_MS = 86_400_000;

/** One key's uses gathered since the last batch; `days` counts requests by UTC day number. */
interface Pending {
  lastAt: Date;
  ip: string | null;
  userAgent: string | null;
  days: Map<number, number>;
}

/** Whole characters, at most `max`: what a column of that length holds. */
const clip = (value: string | undefined, max: number): string | null => {
  if (value === undefined || value === '') return null;
  return value.length <= max ? value : Array.from(value).slice(0, max).join('');
};

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * Remembers each API key's uses — when it was last used, from which address and user agent, and
 * how many requests it authenticated per UTC day — and writes them in one batch every
 * `intervalMs`, so a key-authenticated request never waits on a write. What is stored may lag by
 * one interval. A batch that cannot be written (the database briefly away) is logged and merged
 * into the next one: its counts are added, never lost, and the newest use wins.
 */
export class LastUsedRecorder {
  readonly #db: Database;
  readonly #intervalMs: number;
  readonly #log: Log;
  #pending = new Map<string, Pending>();
  #timer: NodeJS.Timeout | undefined;
  /** The last flush, settled either way: the next one waits for it, whatever its outcome. */
  #flushed: Promise<void> = Promise.resolve();

  constructor(db: Database, intervalMs: number, log: Log) {
    this.#db = db;
    this.#intervalMs = intervalMs;
    this.#log = log;
  }

  /** Notes one authenticated request; memory only. */
  touch(keyId: string, at: Date, ip?: string, userAgent?: string): void {
    const day = Math.floor(at.getTime() / DAY_MS);
    const pending = this.#pending.get(keyId);
    if (pending === undefined) {
      this.#pending.set(keyId, {
        lastAt: at,
        ip: clip(ip, TEXT_LIMITS.ipAddress),
        userAgent: clip(userAgent, TEXT_LIMITS.userAgent),
        days: new Map([[day, 1]]),
      });
      return;
    }
    pending.days.set(day, (pending.days.get(day) ?? 0) + 1);
    if (at >= pending.lastAt) {
      pending.lastAt = at;
      // The same client sends the same headers request after request: no new string is kept for them.
      if (pending.ip !== ip) pending.ip = clip(ip, TEXT_LIMITS.ipAddress);
      if (pending.userAgent !== userAgent) pending.userAgent = clip(userAgent, TEXT_LIMITS.userAgent);
    }
  }

  /** Requests noted and not yet written, for every key (tests and shutdown logs). */
  get pendingRequests(): number {
    let total = 0;
    for (const pending of this.#pending.values()) for (const n of pending.days.values()) total += n;
    return total;
  }

  start(): void {
    this.#timer ??= setInterval(() => {
      this.flush().catch(() => {
        // Logged by #write; the batch goes out with the next one.
      });
    }, this.#intervalMs);
    this.#timer.unref();
  }

  /** Writes what is pending one last time. Never throws: shutdown goes on, and a loss is logged. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    try {
      await this.flush();
    } catch (error) {
      this.#log.error(
        { err: error, keys: this.#pending.size, requests: this.pendingRequests },
        'last_used_at not written at shutdown; these uses are lost',
      );
    }
  }

  /** Writes what is pending; flushes never overlap, and a failed batch is merged back for the next. */
  flush(): Promise<void> {
    const flush = this.#flushed.then(() => this.#write());
    this.#flushed = flush.catch(() => {});
    return flush;
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      await this.#db.fork().getRepository(ApiKey).recordUses(toUses(batch));
    } catch (error) {
      this.#mergeBack(batch);
      this.#log.warn({ err: error, keys: batch.size }, 'could not write last_used_at and usage counts; retrying with the next batch');
      throw error;
    }
  }

  /** A failed batch rejoins what was noted meanwhile: counts add up, the newer use wins. */
  #mergeBack(batch: Map<string, Pending>): void {
    for (const [keyId, failed] of batch) {
      const newer = this.#pending.get(keyId);
      if (newer === undefined) {
        this.#pending.set(keyId, failed);
        continue;
      }
      for (const [day, n] of failed.days) newer.days.set(day, (newer.days.get(day) ?? 0) + n);
      if (failed.lastAt > newer.lastAt) {
        newer.lastAt = failed.lastAt;
        newer.ip = failed.ip;
        newer.userAgent = failed.userAgent;
      }
    }
  }
}

function toUses(batch: Map<string, Pending>): Map<string, KeyUses> {
  const uses = new Map<string, KeyUses>();
  for (const [keyId, pending] of batch) {
    const requestsByDay = new Map<string, number>();
    for (const [day, n] of pending.days) requestsByDay.set(dateOf(day), n);
    uses.set(keyId, { lastAt: pending.lastAt, ip: pending.ip, userAgent: pending.userAgent, requestsByDay });
  }
  return uses;
}
