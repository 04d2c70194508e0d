import type { Database } from '@lfk/db';

/**
 * Remembers when each API key was last used and writes it in one batch every `intervalMs`,
 * so a key-authenticated request never waits on a write. `last_used_at` may lag by one interval.
 */
export class LastUsedRecorder {
  readonly #db: Database;
  readonly #intervalMs: number;
  #pending = new Map<string, Date>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(db: Database, intervalMs: number) {
    this.#db = db;
    this.#intervalMs = intervalMs;
  }

  touch(keyId: string, at: Date): void {
    this.#pending.set(keyId, at);
  }

  start(): void {
    this.#timer ??= setInterval(() => {
      this.flush().catch(() => {
        // A failed batch is retried with the next one; see flush().
      });
    }, this.#intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** Writes what is pending; flushes never overlap, and a failed batch is merged back. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  async #write(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    const rows = [...batch];
    const values = rows.map(() => '(?, ?::timestamptz)').join(', ');
    try {
      await this.#db.fork().execute(
        `update api_keys as k set last_used_at = v.at
           from (values ${values}) as v(id, at)
          where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.at)`,
        rows.flatMap(([id, at]) => [id, at.toISOString()]),
      );
    } catch (error) {
      for (const [id, at] of batch) if (!this.#pending.has(id)) this.#pending.set(id, at);
      throw error;
    }
  }
}
