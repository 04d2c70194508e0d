/**
 * The api package's test world: the services on the worker's shared database, accounts written
 * by the code sign-up runs, and callers with a bearer, as `createCaller` sees them: no HTTP.
 */
import { sharedDatabase } from '@lfk/db/testing';
import { randomBytes } from 'node:crypto';
import { openAccount } from '../src/features/accounts/accounts.ts';
import { callerContext, type Services } from '../src/context.ts';
import { hashPassword } from '../src/credentials/passwords.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../src/rate-limits/rate-limits.ts';
import { createCaller } from '../src/root.ts';
import { createServices } from '../src/services.ts';

const RATE_LIMITS_OFF = Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, null])) as RateLimitConfig;
const QUIET_LOG = { debug() {}, info() {}, warn() {}, error() {} };

/** Services as the server builds them, on the shared database, with rate limits off and no mailer. */
export async function testServices(): Promise<Services> {
  const { db } = await sharedDatabase();
  return createServices(
    db,
    {
      apiKeyCache: { maxEntries: 1000, ttlMs: 60_000 },
      lastUsedFlushMs: 3_600_000,
      rateLimits: RATE_LIMITS_OFF,
      allowSignup: true,
      publicUrl: 'http://lfk.test',
      verifyResendIntervalMs: 60_000,
      now: () => new Date(),
      secretScanningKeys: new Map(),
    },
    QUIET_LOG,
    () => {},
  );
}

export interface Person {
  token: string;
  userId: string;
  workspaceId: string;
  email: string;
}

let passwordHash: Promise<string> | undefined;

/** A new account (user, personal workspace, session) on `services`' database. */
export async function person(services: Services): Promise<Person> {
  passwordHash ??= hashPassword('correct horse battery staple');
  const email = `person-${randomBytes(4).toString('hex')}@example.com`;
  const hash = await passwordHash;
  const { user, workspace, session } = await services.db.fork().transactional(async (em) => openAccount(em, { email, passwordHash: hash }, services.now()));
  return { token: session.token, userId: user.id, workspaceId: workspace.id, email };
}

/** The whole router, called as the holder of `bearer` (a key or a session token), or by nobody. */
export async function callerFor(services: Services, bearer?: string) {
  return createCaller(await callerContext(services, { bearer }));
}
