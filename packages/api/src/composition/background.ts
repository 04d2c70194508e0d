import { rm } from 'node:fs/promises';
import type { Database } from '@lfk/db';
import type { Services } from '../context.ts';
import { type BackgroundTask, closer } from '../infrastructure/background-task.ts';
import type { DatabaseOutage } from '../infrastructure/database-outage.ts';
import { type EmailSenderSettings, emailSender } from '../infrastructure/email-sender.ts';
import { deleteExpiredIdempotencyRecords } from '../infrastructure/idempotency.ts';
import { logTransport, smtpTransport } from '../infrastructure/mail-transports.ts';
import { periodic } from '../infrastructure/periodic.ts';
import { DEFAULT_DELIVERY_SETTINGS } from '../features/webhooks/delivery-job.ts';
import { type WebhookWorkerSettings, webhookWorker } from '../features/webhooks/tasks.ts';
import { keyLifecycleSweep, keyUseBuffer, revocationListener } from '../features/keys/tasks.ts';
import { retentionSweep } from '../features/inbox/tasks.ts';
import { formChangeListener } from '../features/forms/tasks.ts';
import { uploadSweep } from '../features/files/tasks.ts';
import type { Log } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import { createServices, type ServicesSettings } from './services.ts';

/** Every background timing, one key per task. */
export interface BackgroundSettings {
  email: EmailSenderSettings;
  webhooks: WebhookWorkerSettings;
  keyUses: { flushMs: number };
  keyLifecycle: { everyMs: number };
  retention: { everyMs: number };
  idempotency: { everyMs: number };
  rateLimits: { everyMs: number };
}

const TEN_MINUTES_MS = 10 * 60_000;

/** The one place the background timings are set (the server maps its config and test options onto them). */
export const BACKGROUND_DEFAULTS: BackgroundSettings = {
  email: { pollMs: 1000, lockMs: 120_000, maxAttempts: 12, baseDelayMs: 2000, maxDelayMs: 15 * 60_000, batchSize: 10 },
  webhooks: { ...DEFAULT_DELIVERY_SETTINGS, pollMs: 1000, batchSize: 32, concurrency: 1024 },
  keyUses: { flushMs: 5000 },
  keyLifecycle: { everyMs: 60_000 },
  retention: { everyMs: TEN_MINUTES_MS },
  idempotency: { everyMs: TEN_MINUTES_MS },
  rateLimits: { everyMs: TEN_MINUTES_MS },
};

export interface RuntimeOptions {
  db: Database;
  settings: Omit<ServicesSettings, 'lastUsedFlushMs'>;
  background: BackgroundSettings;
  /** The log background work writes to (the server's, quiet about an outage it already reported). */
  log: Log;
  /** Where mail is printed when there is no SMTP server. */
  mailLog: Log;
  metrics: Metrics;
  outage: DatabaseOutage;
  mail: { smtpUrl: string | undefined; from: string };
}

/**
 * The services, and the one list of background tasks, in start order. Reversed, it is the order
 * they stop in: request work first (it may queue mail and deliveries), then the sweeps and
 * queues, then the connections and the buffer they may still use, and the outage watch last,
 * just before the caller closes the database.
 */
export function createRuntime(options: RuntimeOptions): { services: Services; tasks: BackgroundTask[] } {
  const { db, background, log, metrics, outage } = options;
  // The queues are woken through the services; the workers are built after them, so bound late.
  let sender: BackgroundTask | undefined;
  let deliveries: BackgroundTask | undefined;
  const wakeMailer = () => sender?.wake?.();
  const services = createServices(
    db,
    { ...options.settings, lastUsedFlushMs: background.keyUses.flushMs },
    log,
    { mailer: wakeMailer, webhooks: () => deliveries?.wake?.() },
    metrics,
  );
  const { publicUrl, now } = services;
  const transport = options.mail.smtpUrl ? smtpTransport(options.mail.smtpUrl, options.mail.from) : logTransport(options.mailLog);
  sender = emailSender(db, services.secretBox, transport, log, background.email);
  deliveries = webhookWorker(
    { db, secretBox: services.secretBox, outbound: services.outbound, log, publicUrl, wakeMailer, metrics: services.metrics },
    background.webhooks,
  );
  const tasks: BackgroundTask[] = [
    outage,
    revocationListener(db, services.apiKeyCache, log),
    formChangeListener(db, services.formCache, log),
    keyUseBuffer(services.keyUses),
    closer('captcha connections', () => services.captcha.close()),
    closer('webhook connections', () => services.outbound.close()),
    closer('file storage', async () => {
      await services.files.storage.close();
      await services.files.scanner?.close();
      if (services.files.settings.temporarySpool) await rm(services.files.settings.spoolDir, { recursive: true, force: true });
    }),
    sender,
    deliveries,
    retentionSweep(db, now, background.retention.everyMs, log),
    uploadSweep(db, services.files, now, log),
    keyLifecycleSweep(db, now, publicUrl, background.keyLifecycle.everyMs, wakeMailer, log),
    periodic('rate limit sweep', 'sweep refilled rate limit buckets', background.rateLimits.everyMs, async () => {
      await services.rateLimits.sweep();
    }, log),
    periodic('idempotency sweep', 'sweep expired idempotency records', background.idempotency.everyMs, () => deleteExpiredIdempotencyRecords(db.fork(), now()), log),
    services.background,
  ];
  return { services, tasks };
}
