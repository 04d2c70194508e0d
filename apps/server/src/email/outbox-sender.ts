import { AsyncResource } from 'node:async_hooks';
import { type ClaimedEmail, type Database, OutboxEmail } from '@lfk/db';
import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from './transports.ts';

export interface OutboxSenderOptions {
  /** How often to look for due mail when nobody wakes the sender. */
  pollMs: number;
  /** How long a sender holds a message it is sending; after that another may take it. */
  lockMs: number;
  maxAttempts: number;
  /** The first retry waits this long; each further one twice as long, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  batchSize: number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxSenderOptions = {
  pollMs: 1000,
  lockMs: 120_000,
  maxAttempts: 12,
  baseDelayMs: 2000,
  maxDelayMs: 15 * 60_000,
  batchSize: 10,
};

/**
 * Delivers the outbox. Each message is taken with a time-limited lock (`for update skip locked`,
 * so replicas never take the same one), sent, then marked sent with its body cleared. A failure
 * is retried with exponential backoff; a sender that dies mid-send lets the lock lapse and the
 * message is sent again later (at least once, never lost).
 */
export class OutboxSender {
  readonly #db: Database;
  readonly #transport: MailTransport;
  readonly #log: FastifyBaseLogger;
  readonly #options: OutboxSenderOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  /**
   * The sender's own async context. A request that queued mail wakes the sender, and without this
   * the sending and every poll after it would run in that request's context: counted as the
   * request's work by anything tracing requests, and keeping the context alive for good.
   */
  readonly #scope = new AsyncResource('lfk.OutboxSender');
  #stopped = true;

  constructor(db: Database, transport: MailTransport, log: FastifyBaseLogger, options: Partial<OutboxSenderOptions> = {}) {
    this.#db = db;
    this.#transport = transport;
    this.#log = log;
    this.#options = { ...DEFAULT_OUTBOX_OPTIONS, ...options };
  }

  start(): void {
    this.#stopped = false;
    this.wake();
  }

  /** New mail is in the outbox: look now rather than at the next poll. */
  wake(): void {
    this.#scope.runInAsyncScope(() => this.#wake());
  }

  #wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
      if (this.#stopped) return;
      if (this.#again) {
        this.#again = false;
        this.wake();
      } else {
        this.#timer = setTimeout(() => this.wake(), this.#options.pollMs);
        this.#timer.unref();
      }
    });
  }

  /** Stops looking; a send in progress finishes. Unsent mail stays in the outbox for the next start. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
    this.#transport.close();
  }

  async #drain(): Promise<void> {
    try {
      for (;;) {
        const batch = await this.#claim();
        for (const row of batch) await this.#deliver(row);
        if (batch.length < this.#options.batchSize || this.#stopped) return;
      }
    } catch (error) {
      // The database may be briefly away; the next poll tries again. A message sent but not yet
      // marked sent has its lock lapse and goes out once more: at least once, never lost.
      this.#log.error({ err: error }, 'outbox: could not reach the database; trying again at the next poll');
    }
  }

  #claim(): Promise<ClaimedEmail[]> {
    const now = new Date();
    const lockedUntil = new Date(now.getTime() + this.#options.lockMs);
    return this.#db.fork().getRepository(OutboxEmail).claimDue(now, lockedUntil, this.#options.batchSize);
  }

  async #deliver(row: ClaimedEmail): Promise<void> {
    const outbox = this.#db.fork().getRepository(OutboxEmail);
    try {
      await this.#transport.send(row);
      await outbox.markSent(row.id);
      this.#log.info({ email_id: row.id, kind: row.kind, attempt: row.attempts }, 'email sent');
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const giveUp = row.attempts >= this.#options.maxAttempts;
      const delay = Math.min(this.#options.baseDelayMs * 2 ** (row.attempts - 1), this.#options.maxDelayMs);
      await outbox.markFailed(row.id, reason, new Date(Date.now() + delay), giveUp);
      const fields = { email_id: row.id, kind: row.kind, attempt: row.attempts, reason };
      if (giveUp) this.#log.error(fields, 'email failed for good after its last attempt');
      else this.#log.warn({ ...fields, retry_in_ms: delay }, 'email not sent; will retry');
    }
  }
}
