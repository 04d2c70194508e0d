import { ApiKey, type Database, type DayUses, type KeyUses, type LastUse } from '@lfk/db';
import { type ApiKeyRefusalReason, noRefusals, totalRefused } from '@lfk/vocabulary';
import { DAY_MS, utcDateOf } from '@lfk/vocabulary';
import type { Log } from '../../log.ts';
import { parseAddress } from '../../credentials/allowed-ips-schemas.ts';

/** One key's uses gathered since the last batch: its newest accepted one, and counts by UTC day number. */
interface Pending {
  last: LastUse | null;
  days: Map<number, DayUses>;
}

/**
 * Remembers each API key's uses — when it was last accepted, from which address and user agent,
 * and how many requests presented it per UTC day, accepted or refused by reason — and writes them
 * in one batch every `intervalMs`, so a request that presents a key never waits on a write. What is
 * stored may lag by one interval. A batch that cannot be written (the database briefly away) is
 * logged and merged into the next one: its counts are added, never lost, and the newest use wins.
 */
export class KeyUseRecorder {
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

  /** Notes one request the key authenticated, from an address and user agent already cut to fit (where the request is read); memory only. */
  accepted(keyId: string, at: Date, ip?: string, userAgent?: string): void {
    const pending = this.#pendingOf(keyId);
    dayOf(pending, at).accepted++;
    const last = pending.last;
    if (last === null) {
      pending.last = { at, ip: ip || null, userAgent: userAgent || null };
    } else if (at >= last.at) {
      last.at = at;
      last.ip = ip || null;
      last.userAgent = userAgent || null;
    }
  }

  /** Notes one request that presented the key and was refused, and why; memory only. */
  refused(keyId: string, reason: ApiKeyRefusalReason, at: Date): void {
    dayOf(this.#pendingOf(keyId), at).refused[reason]++;
  }

  #pendingOf(keyId: string): Pending {
    let pending = this.#pending.get(keyId);
    if (pending === undefined) {
      pending = { last: null, days: new Map() };
      this.#pending.set(keyId, pending);
    }
    return pending;
  }

  /** Requests noted and not yet written, accepted and refused, for every key (tests and shutdown logs). */
  get pendingRequests(): number {
    let total = 0;
    for (const pending of this.#pending.values()) for (const day of pending.days.values()) total += requestsOn(day);
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
      // Said whatever the cause, as `reason` rather than `err`: the outage record (which a quiet log
      // hands a lost connection to) would keep quiet about data that is now lost for good.
      this.#log.error(
        { reason: error instanceof Error ? error.message : String(error), keys: this.#pending.size, requests: this.pendingRequests },
        'key uses not written at shutdown; these uses are lost',
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
      this.#log.warn({ err: error, keys: batch.size }, 'could not write key uses (last_used_at and usage counts); retrying with the next batch');
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
      for (const [number, day] of failed.days) {
        const into = newer.days.get(number);
        if (into === undefined) {
          newer.days.set(number, day);
          continue;
        }
        into.accepted += day.accepted;
        for (const reason of Object.keys(day.refused) as ApiKeyRefusalReason[]) into.refused[reason] += day.refused[reason];
      }
      if (failed.last !== null && (newer.last === null || failed.last.at > newer.last.at)) newer.last = failed.last;
    }
  }
}

/** The counts of the UTC day `at` falls on, started at zero. */
function dayOf(pending: Pending, at: Date): DayUses {
  const number = Math.floor(at.getTime() / DAY_MS);
  let day = pending.days.get(number);
  if (day === undefined) {
    day = { accepted: 0, refused: noRefusals() };
    pending.days.set(number, day);
  }
  return day;
}

const requestsOn = (day: DayUses): number => day.accepted + totalRefused(day.refused);

function toUses(batch: Map<string, Pending>): Map<string, KeyUses> {
  const uses = new Map<string, KeyUses>();
  for (const [keyId, pending] of batch) {
    const last = pending.last && { ...pending.last, ip: shownAddress(pending.last.ip) };
    uses.set(keyId, { last, byDay: new Map([...pending.days].map(([number, day]) => [utcDateOf(new Date(number * DAY_MS)), day])) });
  }
  return uses;
}

/**
 * The address as an allowlist names it: a dual-stack socket's `::ffff:203.0.113.7` is written
 * `203.0.113.7`. Once per key and batch, off the request path; anything else is kept as it came.
 */
const shownAddress = (ip: string | null): string | null => (ip === null ? null : (parseAddress(ip)?.toString() ?? ip));
