/**
 * The api package's test world: the services on the worker's shared database, accounts written
 * by the code sign-up runs, and callers with a bearer, as `createCaller` sees them: no HTTP.
 */
import { sharedDatabase } from '@lfk/db/testing';
import { randomBytes } from 'node:crypto';
import { callerContext, type Services } from '../src/context.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../src/rate-limits/rate-limits.ts';
import { createCaller } from '../src/root.ts';
import { createServices } from '../src/composition/services.ts';
import { DEFAULT_EXPORTS_PER_PERSON } from '../src/features/inbox/export.ts';
import { DEFAULT_LONG_POLL_LIMITS } from '../src/infrastructure/long-polls.ts';
import { CAPTCHA_TIMEOUT_MS, CAPTCHA_VERIFY_URLS } from '../src/features/forms/captcha.ts';
import { type SeededAccount, seedAccount } from '../src/testing.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILE_FIELD_LIMITS, FILE_LINK_TTL } from '@lfk/vocabulary';
import { DirectoryStorage } from '../src/features/files/storage/directory-storage.ts';
import type { ServicesSettings } from '../src/composition/services.ts';
import type { ObjectStorage } from '../src/features/files/storage/object-storage.ts';
import type { MalwareScanner } from '../src/features/files/malware-scanner.ts';

const RATE_LIMITS_OFF = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, null])) as RateLimitConfig;
const QUIET_LOG = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Services as the server builds them, on the shared database, with rate limits off (but those
 * `rateLimits` turns on) and no mailer. `now`: the clock every rule reads (a `testClock()` the test
 * turns); the real time unless given.
 */
export async function testServices({
  now = () => new Date(),
  files,
  rateLimits = {},
}: { now?: () => Date; files?: Partial<ServicesSettings['files']>; rateLimits?: Partial<RateLimitConfig> } = {}): Promise<Services> {
  const { db } = await sharedDatabase();
  return createServices(
    db,
    {
      apiKeyCache: { maxEntries: 1000, ttlMs: 60_000 },
      formCache: { maxEntries: 1000, ttlMs: 60_000 },
      lastUsedFlushMs: 3_600_000,
      rateLimits: { ...RATE_LIMITS_OFF, ...rateLimits },
      allowSignup: true,
      publicUrl: 'http://lfk.test',
      verifyResendIntervalMs: 60_000,
      sudoWindowMs: 600_000,
      now,
      secretScanningKeys: new Map(),
      secretKey: randomBytes(32),
      webhooks: { allowPrivate: true },
      captcha: { verifyUrls: CAPTCHA_VERIFY_URLS, timeoutMs: CAPTCHA_TIMEOUT_MS },
      exportsPerPerson: DEFAULT_EXPORTS_PER_PERSON,
      longPolls: DEFAULT_LONG_POLL_LIMITS,
      files: { ...(await testFileSettings()), ...files },
    },
    QUIET_LOG,
    { mailer() {}, webhooks() {} },
  );
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
 * services) and a spool folder beside it, the server's default limits, no scanner.
 */
export async function testFileSettings(options: { storage?: ObjectStorage; scanner?: MalwareScanner | null } = {}): Promise<ServicesSettings['files']> {
  const root = await mkdtemp(join(workerFilesRoot(), 'services-'));
  return {
    storage: options.storage ?? new DirectoryStorage(join(root, 'files')),
    scanner: options.scanner ?? null,
    spoolDir: root,
    maxFileSize: FILE_FIELD_LIMITS.defaultMaxSize,
    maxSubmissionSize: FILE_FIELD_LIMITS.defaultSubmissionSize,
    linkTtlSeconds: FILE_LINK_TTL.default,
    uploadSweepMs: 60_000,
  };
}
