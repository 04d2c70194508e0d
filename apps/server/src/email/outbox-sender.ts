import { bodyToSend, type Log, type QueueJob, QueueWorker, type SecretBox } from '@lfk/api';
import { type ClaimedEmail, type Database, OutboxEmail } from '@lfk/db';
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
  /** Messages taken by one claim (then sent one after another). */
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
 * The email outbox as a queue job: each message is taken with a time-limited lock, sent (a link's
 * sealed token unsealed into it), then marked sent with its body cleared. A failure is retried with exponential backoff; a sender that
 * dies mid-send lets the lock lapse and the message is sent again later (at least once, never lost).
 */
function emailJob(db: Database, box: SecretBox, transport: MailTransport, log: Log, options: OutboxSenderOptions): QueueJob<ClaimedEmail> {
  return {
    name: 'outbox',
    async claim(limit) {
      const now = new Date();
      const lockedUntil = new Date(now.getTime() + options.lockMs);
      const items = await db.fork().getRepository(OutboxEmail).claimDue(now, lockedUntil, limit);
      // Fewer than asked: nothing else is due.
      return { items, more: items.length === limit };
    },
    async perform(row) {
      const outbox = db.fork().getRepository(OutboxEmail);
      try {
        // A link's token is put back here, on its way out: it is never stored in the clear.
        await transport.send({ ...row, body: bodyToSend(row, box) });
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        const giveUp = row.attempts >= options.maxAttempts;
        const delay = Math.min(options.baseDelayMs * 2 ** (row.attempts - 1), options.maxDelayMs);
        await outbox.markFailed(row.id, reason, new Date(Date.now() + delay), giveUp);
        const fields = { email_id: row.id, kind: row.kind, attempt: row.attempts, reason };
        if (giveUp) log.error(fields, 'email failed for good after its last attempt');
        else log.warn({ ...fields, retry_in_ms: delay }, 'email not sent; will retry');
        return;
      }
      await outbox.markSent(row.id);
      log.info({ email_id: row.id, kind: row.kind, attempt: row.attempts }, 'email sent');
    },
  };
}

/** Delivers the outbox on the shared queue engine (`QueueWorker`), and closes its transport when stopped. */
export class OutboxSender {
  readonly #worker: QueueWorker<ClaimedEmail>;
  readonly #transport: MailTransport;

  constructor(db: Database, box: SecretBox, transport: MailTransport, log: Log, options: Partial<OutboxSenderOptions> = {}) {
    const settings = { ...DEFAULT_OUTBOX_OPTIONS, ...options };
    this.#transport = transport;
    // One message at a time, as a mail server expects of one client; a batch claimed at once.
    this.#worker = new QueueWorker(emailJob(db, box, transport, log, settings), log, {
      pollMs: settings.pollMs,
      batchSize: settings.batchSize,
      concurrency: 1,
    });
  }

  start(): void {
    this.#worker.start();
  }

  /** New mail is in the outbox: look now rather than at the next poll. */
  wake(): void {
    this.#worker.wake();
  }

  /** Stops looking; a send in progress finishes. Unsent mail stays in the outbox for the next start. */
  async stop(): Promise<void> {
    await this.#worker.stop();
    this.#transport.close();
  }
}
