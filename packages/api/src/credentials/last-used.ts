import { ApiKey, type Database } from '@lfk/db';
import type { Log } from '../log.ts';

/**
 * Remembers when each API key was last used and writes it in one batch every `intervalMs`,
 * so a key-authenticated request never waits on a write. `last_used_at` may lag by one interval.
 * A batch that cannot be written (the database briefly away) is logged and goes out with the next.
 */
export class LastUsedRecorder {
  readonly #db: Database;
  readonly #intervalMs: number;
  readonly #log: Log;
  #pending = new Map<string, Date>();
  #timer: NodeJS.Timeout | undefined;
  /** The last flush, settled either way: the next one waits for it, whatever its outcome. */
  #flushed: Promise<void> = Promise.resolve();

  constructor(db: Database, intervalMs: number, log: Log) {
    this.#db = db;
    this.#intervalMs = intervalMs;
    this.#log = log;
  }

  touch(keyId: string, at: Date): void {
    this.#pending.set(keyId, at);
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
      this.#log.error({ err: error, keys: this.#pending.size }, 'last_used_at not written at shutdown; these uses are lost');
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
      await this.#db.fork().getRepository(ApiKey).touchLastUsed(batch);
    } catch (error) {
      // Newer uses touched meanwhile win over the failed batch's.
      for (const [id, at] of batch) if (!this.#pending.has(id)) this.#pending.set(id, at);
      this.#log.warn({ err: error, keys: batch.size }, 'could not write last_used_at; retrying with the next batch');
      throw error;
    }
  }
}
