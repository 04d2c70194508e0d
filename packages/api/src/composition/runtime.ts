import type { Database } from '@lfk/db';
import type { Services } from '../context.ts';
import { SecretBox } from '../credentials/secret-box.ts';
import type { FileResources } from '../features/files/services.ts';
import { type ApiSettings, FEATURES } from '../features.ts';
import type { Wiring } from '../feature.ts';
import { type BackgroundTask, TaskList } from '../infrastructure/background-task.ts';
import { BackgroundWork } from '../infrastructure/background-work.ts';
import { emailSender } from '../infrastructure/email-sender.ts';
import { idempotencySweep } from '../infrastructure/idempotency.ts';
import { rateLimitSweep } from '../infrastructure/rate-limit-sweep.ts';
import { logTransport, smtpTransport } from '../infrastructure/mail-transports.ts';
import type { Log } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import { RateLimits } from '../rate-limits/rate-limits.ts';

export interface RuntimeOptions {
  db: Database;
  settings: ApiSettings;
  secretKey: Buffer;
  files: FileResources;
  /** The log background work writes to; `mailLog` prints mail when there is no SMTP server. */
  log: Log;
  mailLog: Log;
  metrics: Metrics;
  /** The caller's tasks: `first` stop last (the database, the outage watch), `last` stop first (requests). */
  first: BackgroundTask[];
  last: BackgroundTask[];
}

/** The services and the one list of tasks: the kernel's, then each feature's in FEATURES order (they stop in reverse). */
export function createRuntime(options: RuntimeOptions): { services: Services; tasks: TaskList } {
  const { db, settings, log, secretKey } = options;
  const secretBox = new SecretBox(secretKey);
  const transport = settings.smtpUrl ? smtpTransport(settings.smtpUrl, settings.emailFrom) : logTransport(options.mailLog);
  // Started before the features' tasks, the mailer stops after them: any of them may queue mail.
  const sender = emailSender(db, secretBox, transport, log, settings.outbox);
  const rateLimits = new RateLimits(settings.rateLimits, db);
  const kernel = { db, publicUrl: settings.publicUrl, sudoWindowMs: settings.sudoWindowMs, now: settings.now, metrics: options.metrics, secretBox, rateLimits };
  const wake = { wakeMailer: () => sender.wake?.(), wakeWebhooks: () => tasks.wake('webhook worker') };
  const services = { ...kernel, ...wake, background: new BackgroundWork(log) } as Services;
  const wiring: Wiring = { services, log, secretKey, files: options.files };
  for (const feature of FEATURES) Object.assign(services, feature.services?.(wiring, settings));
  const tasks = new TaskList(
    [
      ...options.first,
      sender,
      rateLimitSweep(rateLimits, settings.sweeps.rateLimitsMs, log),
      idempotencySweep(db, settings.now, settings.sweeps.idempotencyMs, log),
      ...FEATURES.flatMap((feature) => feature.tasks?.(wiring, settings) ?? []),
      services.background,
      ...options.last,
    ],
    log,
  );
  return { services, tasks };
}
