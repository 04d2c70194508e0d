import { type LongPollLimits, LongPolls } from '../infrastructure/long-polls.ts';
import { FeedWatch } from '../features/webhooks/feed-watch.ts';
import type { KeyObject } from 'node:crypto';
import type { Database } from '@lfk/db';
import type { Services } from '../context.ts';
import { ApiKeyCache } from '../credentials/api-key-cache.ts';
import { KeyUseRecorder } from '../features/keys/key-uses.ts';
import type { Log } from '../log.ts';
import { type Metrics, NO_METRICS } from '../metrics.ts';
import { type RateLimitConfig, RateLimits } from '../rate-limits/rate-limits.ts';
import { SecretBox } from '../credentials/secret-box.ts';
import { Outbound } from '../infrastructure/outbound-requests.ts';
import { type CaptchaSettings, CaptchaVerifier } from '../features/forms/captcha.ts';
import { FormCache } from '../features/forms/form-cache.ts';
import { queueFormStateChanged } from '../features/webhooks/events.ts';
import { BackgroundWork } from '../infrastructure/background-work.ts';
import { RefusedOrigins } from '../features/inbox/refused-origins.ts';
import { exportLimit } from '../features/inbox/export.ts';
import type { FilesSettings } from '../features/files/settings.ts';
import { FileLinks } from '../features/files/links.ts';
import type { ObjectStorage } from '../features/files/storage/object-storage.ts';
import type { MalwareScanner } from '../features/files/malware-scanner.ts';

/** What the services are built from: the server's configuration, or a test's. */
export interface ServicesSettings {
  apiKeyCache: { maxEntries: number; ttlMs: number };
  /** The forms submissions are checked against, kept in memory: how many and how long; 0 turns it off. */
  formCache: { maxEntries: number; ttlMs: number };
  lastUsedFlushMs: number;
  rateLimits: RateLimitConfig;
  allowSignup: boolean;
  publicUrl: string;
  verifyResendIntervalMs: number;
  /** `LFK_SUDO_WINDOW`, in milliseconds. */
  sudoWindowMs: number;
  now: () => Date;
  secretScanningKeys: ReadonlyMap<string, KeyObject>;
  /** `LFK_SECRET_KEY`: 32 bytes that seal stored secrets. */
  secretKey: Buffer;
  webhooks: { allowPrivate: boolean; timeoutMs?: number };
  /** The captcha providers' siteverify URLs (`LFK_*_VERIFY_URL`) and how long each may take. */
  captcha: CaptchaSettings;
  /** `LFK_EXPORTS_PER_PERSON`: exports one person may stream at once from one process. */
  exportsPerPerson: number;
  /** `LFK_LONG_POLLS_PER_PERSON`, `LFK_LONG_POLLS_PER_WORKSPACE`: polls of the events feed held open at once, per process. */
  longPolls: LongPollLimits;
  /** Where submitted files go, whether they are scanned, and their limits and links. */
  files: FilesSettings & { storage: ObjectStorage; scanner: MalwareScanner | null };
}

/** Who to tell that a queue has new work: the workers the server runs. */
export interface Wakers {
  mailer(): void;
  webhooks(): void;
}

/**
 * The services every call shares, on `db`. The caller starts the last-used recorder (the server
 * does; a test that does not flush by hand should too), says how to wake the queue workers, and
 * closes `outbound` and `captcha` when it is done.
 */
export function createServices(db: Database, settings: ServicesSettings, log: Log, wake: Wakers, metrics: Metrics = NO_METRICS): Services {
  const background = new BackgroundWork(log);
  const formCache = new FormCache({ ...settings.formCache, exact: db.engine === 'pglite', now: () => settings.now().getTime() });
  return {
    db,
    // One clock for the cache and the expiry it enforces.
    apiKeyCache: new ApiKeyCache({ ...settings.apiKeyCache, now: () => settings.now().getTime() }),
    keyUses: new KeyUseRecorder(db, settings.lastUsedFlushMs, log),
    rateLimits: new RateLimits(settings.rateLimits, db),
    allowSignup: settings.allowSignup,
    publicUrl: settings.publicUrl,
    verifyResendIntervalMs: settings.verifyResendIntervalMs,
    sudoWindowMs: settings.sudoWindowMs,
    wakeMailer: wake.mailer,
    wakeWebhooks: wake.webhooks,
    secretBox: new SecretBox(settings.secretKey),
    outbound: new Outbound({ allowPrivate: settings.webhooks.allowPrivate, ...(settings.webhooks.timeoutMs ? { timeoutMs: settings.webhooks.timeoutMs } : {}) }),
    captcha: new CaptchaVerifier(settings.captcha, log),
    formCache,
    formStateEvents: queueFormStateChanged,
    background,
    longPolls: new LongPolls(settings.longPolls),
    feedWatch: new FeedWatch(db, log),
    refusedOrigins: new RefusedOrigins(db, background, formCache, settings.now),
    now: settings.now,
    secretScanningKeys: settings.secretScanningKeys,
    metrics,
    exports: exportLimit(settings.exportsPerPerson),
    files: {
      storage: settings.files.storage,
      scanner: settings.files.scanner,
      links: new FileLinks(settings.secretKey, settings.publicUrl),
      settings: settings.files,
      log,
    },
  };
}
