import { type ClaimedEmail, type Database, OutboxEmail } from '@lfk/db';
import type { SecretBox } from '../credentials/secret-box.ts';
import type { Log } from '../log.ts';
import type { BackgroundTask } from './background-task.ts';
import type { MailTransport } from './mail-transports.ts';
import { bodyToSend } from './outbox.ts';
import { type QueueJob, QueueWorker } from './queue-worker.ts';

export interface EmailSenderSettings {
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

/**
 * The email outbox as a queue job: each message is taken with a time-limited lock, sent (a link's
 * sealed token unsealed into it), then marked sent with its body cleared. A failure is retried with exponential backoff; a sender that
 * dies mid-send lets the lock lapse and the message is sent again later (at least once, never lost).
 */
function emailJob(db: Database, box: SecretBox, transport: MailTransport, log: Log, settings: EmailSenderSettings): QueueJob<ClaimedEmail> {
  return {
    name: 'outbox',
    async claim(limit) {
      const now = new Date();
      const lockedUntil = new Date(now.getTime() + settings.lockMs);
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
        const giveUp = row.attempts >= settings.maxAttempts;
        const delay = Math.min(settings.baseDelayMs * 2 ** (row.attempts - 1), settings.maxDelayMs);
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

/**
 * The 'email sender': delivers the outbox on the shared queue engine (`QueueWorker`), and closes
 * its transport when stopped. A send in progress finishes; unsent mail stays in the outbox.
 */
export function emailSender(db: Database, box: SecretBox, transport: MailTransport, log: Log, settings: EmailSenderSettings): BackgroundTask {
  // One message at a time, as a mail server expects of one client; a batch claimed at once.
  const worker = new QueueWorker(emailJob(db, box, transport, log, settings), log, {
    pollMs: settings.pollMs,
    batchSize: settings.batchSize,
    concurrency: 1,
  });
  return {
    name: 'email sender',
    start: () => worker.start(),
    wake: () => worker.wake(),
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}
