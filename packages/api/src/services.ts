import type { KeyObject } from 'node:crypto';
import type { Database } from '@lfk/db';
import type { Services } from './context.ts';
import { ApiKeyCache } from './credentials/api-key-cache.ts';
import { LastUsedRecorder } from './credentials/last-used.ts';
import type { Log } from './log.ts';
import { type RateLimitConfig, RateLimits } from './rate-limits/rate-limits.ts';

/** What the services are built from: the server's configuration, or a test's. */
export interface ServicesSettings {
  apiKeyCache: { maxEntries: number; ttlMs: number };
  lastUsedFlushMs: number;
  rateLimits: RateLimitConfig;
  allowSignup: boolean;
  publicUrl: string;
  verifyResendIntervalMs: number;
  now: () => Date;
  secretScanningKeys: ReadonlyMap<string, KeyObject>;
}

/**
 * The services every call shares, on `db`. The caller starts the last-used recorder (the server
 * does; a test that does not flush by hand should too) and says how to wake the mailer.
 */
export function createServices(db: Database, settings: ServicesSettings, log: Log, wakeMailer: () => void): Services {
  return {
    db,
    // One clock for the cache and the expiry it enforces.
    apiKeyCache: new ApiKeyCache({ ...settings.apiKeyCache, now: () => settings.now().getTime() }),
    lastUsed: new LastUsedRecorder(db, settings.lastUsedFlushMs, log),
    rateLimits: new RateLimits(settings.rateLimits, db),
    allowSignup: settings.allowSignup,
    publicUrl: settings.publicUrl,
    verifyResendIntervalMs: settings.verifyResendIntervalMs,
    wakeMailer,
    now: settings.now,
    secretScanningKeys: settings.secretScanningKeys,
  };
}
