/**
 * The api package's test world: the services on the worker's shared database, accounts written
 * by the code sign-up runs, and callers with a bearer, as `createCaller` sees them: no HTTP.
 */
import { sharedDatabase } from '@lfk/db/testing';
import { randomBytes } from 'node:crypto';
import { callerContext, type Services } from '../src/context.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../src/rate-limits/rate-limits.ts';
import { createCaller } from '../src/root.ts';
import { createRuntime } from '../src/composition/runtime.ts';
import { type ApiSettings, apiSettingsSchema } from '../src/features.ts';
import type { FileResources } from '../src/features/files/services.ts';
import { DatabaseOutage } from '../src/infrastructure/database-outage.ts';
import { NO_METRICS } from '../src/metrics.ts';
import { type SeededAccount, seedAccount } from '../src/testing.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryStorage } from '../src/features/files/storage/directory-storage.ts';
import type { ObjectStorage } from '../src/features/files/storage/object-storage.ts';
import type { MalwareScanner } from '../src/features/files/malware-scanner.ts';

const RATE_LIMITS_OFF = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, null])) as RateLimitConfig;
const QUIET_LOG = { debug() {}, info() {}, warn() {}, error() {} };

/** The settings a test world runs on: the server's defaults, read from a small environment, with `changes`. */
export function testSettings(changes: Partial<ApiSettings> = {}): ApiSettings {
  const settings = apiSettingsSchema.parse({
    LFK_PUBLIC_URL: 'http://lfk.test',
    LFK_WEBHOOK_ALLOW_PRIVATE: 'true',
    LFK_KEY_CACHE_SIZE: '1000',
    LFK_KEY_CACHE_TTL: '60',
    LFK_FORM_CACHE_SIZE: '1000',
    LFK_FORM_CACHE_TTL: '60',
  });
  return { ...settings, lastUsedFlushMs: 3_600_000, rateLimits: RATE_LIMITS_OFF, ...changes };
}

/** The services and tasks as the server builds them, on the shared database, unstarted. */
export async function testRuntime(settings: ApiSettings = testSettings(), files?: FileResources) {
  const { db } = await sharedDatabase();
  return createRuntime({
    db,
    settings,
    secretKey: randomBytes(32),
    files: files ?? (await testFileResources()),
    log: QUIET_LOG,
    mailLog: QUIET_LOG,
    metrics: NO_METRICS,
    first: [new DatabaseOutage(db, QUIET_LOG)],
    last: [],
  });
}

/**
 * Services as the server builds them, on the shared database, with rate limits off (but those
 * `rateLimits` turns on) and no mailer. `now`: the clock every rule reads (a `testClock()` the test
 * turns); the real time unless given. `storage`: files kept there instead of a folder of the worker's.
 */
export async function testServices({
  now = () => new Date(),
  rateLimits = {},
  storage,
}: {
  now?: () => Date;
  rateLimits?: Partial<RateLimitConfig>;
  storage?: ObjectStorage;
} = {}): Promise<Services> {
  const files = await testFileResources(storage ? { storage } : {});
  return (await testRuntime(testSettings({ now, rateLimits: { ...RATE_LIMITS_OFF, ...rateLimits } }), files)).services;
}

export type Person = SeededAccount;

/** A new account (user, personal workspace, session) on `services`' database, at `email` or a fresh address. */
export function person(services: Services, email = `person-${randomBytes(4).toString('hex')}@example.com`): Promise<Person> {
  return seedAccount(services.db, email, services.now());
}

/** The whole router, called as the holder of `bearer` (a key or a session token), or by nobody. */
export async function callerFor(services: Services, bearer?: string) {
  return createCaller(await callerContext(services, { bearer }));
}

/** The worker's files folder: made once, removed when the worker's process exits. */
let filesRoot: string | undefined;
function workerFilesRoot(): string {
  if (!filesRoot) {
    const root = mkdtempSync(join(tmpdir(), 'lfk-test-files-'));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    filesRoot = root;
  }
  return filesRoot;
}

/**
 * Files as the server keeps them by default: a folder (the worker's, which outlives the file's
 * services) and a spool folder beside it, no scanner.
 */
export async function testFileResources(options: { storage?: ObjectStorage; scanner?: MalwareScanner | null } = {}): Promise<FileResources> {
  const root = await mkdtemp(join(workerFilesRoot(), 'services-'));
  return { storage: options.storage ?? new DirectoryStorage(join(root, 'files')), scanner: options.scanner ?? null, spool: { spoolDir: root } };
}
