import { SqlEntityRepository } from '@mikro-orm/sql';
import type { IRateLimitBucket } from '../entities/rate-limit-bucket.ts';

/** A limit as the database applies it: `capacity` events per `windowMs`, at most `capacity` at once. */
export interface BucketRate {
  capacity: number;
  windowMs: number;
}

/** Whole milliseconds per event (the column is an integer), and the burst that many of them make. */
function gcra(rate: BucketRate) {
  const interval = Math.ceil(rate.windowMs / rate.capacity);
  return { interval, burst: interval * rate.capacity };
}

/** With the bucket at `tatMs`, how long until one more event fits (0: now). */
function untilNext(tatMs: number, rate: BucketRate, nowMs: number): number {
  const { interval, burst } = gcra(rate);
  return Math.max(0, tatMs + interval - burst - nowMs);
}

/**
 * Security limits shared by every replica (GCRA, one row per limit and subject; see the entity).
 * Each call is one statement on its own, outside any transaction, so a count is never rolled back
 * with the request that made it.
 */
export class RateLimitBucketRepository extends SqlEntityRepository<IRateLimitBucket> {
  /**
   * Counts one event for `subject` (`events` 1; 0 touches the bucket and counts nothing), atomically
   * across replicas, unless it is over the limit (then nothing is counted). `nextInMs` is how long until one more event would be within the limit:
   * for an event not counted, how long to wait; for one counted, 0 unless it used the last of
   * the budget.
   */
  async take(limitName: string, subject: string, rate: BucketRate, nowMs = Date.now(), events: 0 | 1 = 1): Promise<{ counted: boolean; nextInMs: number }> {
    const { interval, burst } = gcra(rate);
    // `events` 0 is the same statement counting nothing: what a counted event costs, and the same answer when over.
    const step = interval * events;
    const taken = await this.em.execute<{ tat_ms: string }[]>(
      `insert into rate_limit_buckets as b (limit_name, subject, tat_ms) values (?, ?, ?)
       on conflict (limit_name, subject) do update
         set tat_ms = greatest(b.tat_ms, ?) + ?
         where greatest(b.tat_ms, ?) + ? - ? <= ?
       returning tat_ms`,
      [limitName, subject, nowMs + step, nowMs, step, nowMs, interval, nowMs, burst],
    );
    if (taken[0]) return { counted: true, nextInMs: untilNext(Number(taken[0].tat_ms), rate, nowMs) };
    return { counted: false, nextInMs: await this.wait(limitName, subject, rate, nowMs) };
  }

  /** Milliseconds until `subject` may have one more event; 0 means now. Counts nothing. */
  async wait(limitName: string, subject: string, rate: BucketRate, nowMs = Date.now()): Promise<number> {
    const rows = await this.em.execute<{ tat_ms: string }[]>('select tat_ms from rate_limit_buckets where limit_name = ? and subject = ?', [
      limitName,
      subject,
    ]);
    return rows[0] ? untilNext(Number(rows[0].tat_ms), rate, nowMs) : 0;
  }

  /** Gives back one event counted by `take` (a login that turned out to be right). */
  async giveBack(limitName: string, subject: string, rate: BucketRate): Promise<void> {
    await this.em.execute('update rate_limit_buckets set tat_ms = tat_ms - ? where limit_name = ? and subject = ?', [gcra(rate).interval, limitName, subject]);
  }

  /** Forgets subjects whose buckets have refilled: they are the same as no row. */
  async sweep(nowMs = Date.now()): Promise<number> {
    return this.nativeDelete({ tatMs: { $lt: nowMs } });
  }
}
