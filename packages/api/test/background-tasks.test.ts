/**
 * The runtime's one list of background tasks: the order they stop in is the server's shutdown,
 * steps 3 to 17 (apps/server/test/shutdown-order.test.ts checks all 18), a failed stop leaves the
 * rest to run, and only the queues can be woken.
 */
import { sharedDatabase } from '@lfk/db/testing';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_DEFAULTS, createRuntime } from '../src/composition/background.ts';
import { type BackgroundTask, TaskList } from '../src/infrastructure/background-task.ts';
import { CAPTCHA_TIMEOUT_MS, CAPTCHA_VERIFY_URLS } from '../src/features/forms/captcha.ts';
import { DEFAULT_EXPORTS_PER_PERSON } from '../src/features/inbox/export.ts';
import { DEFAULT_LONG_POLL_LIMITS } from '../src/infrastructure/long-polls.ts';
import { DatabaseOutage } from '../src/infrastructure/database-outage.ts';
import { NO_METRICS } from '../src/metrics.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../src/rate-limits/rate-limits.ts';
import { testFileSettings } from './world.ts';

const QUIET_LOG = { info() {}, warn() {}, error() {} };

/** What the server's shutdown does between its metrics and its database, in order. */
const SHUTDOWN_STEPS_3_TO_17 = [
  'request work',
  'idempotency sweep',
  'rate limit sweep',
  'key lifecycle sweep',
  'upload sweep',
  'retention sweep',
  'webhook worker',
  'email sender',
  'file storage',
  'webhook connections',
  'captcha connections',
  'key-use buffer',
  'form change listener',
  'revocation listener',
  'database outage watch',
];

async function runtime() {
  const { db } = await sharedDatabase();
  return createRuntime({
    db,
    settings: {
      apiKeyCache: { maxEntries: 10, ttlMs: 60_000 },
      formCache: { maxEntries: 10, ttlMs: 60_000 },
      rateLimits: Object.fromEntries(Object.keys(DEFAULT_RATE_LIMITS).map((name) => [name, null])) as RateLimitConfig,
      allowSignup: true,
      publicUrl: 'http://lfk.test',
      verifyResendIntervalMs: 60_000,
      sudoWindowMs: 600_000,
      now: () => new Date(),
      secretScanningKeys: new Map(),
      secretKey: randomBytes(32),
      webhooks: { allowPrivate: true },
      captcha: { verifyUrls: CAPTCHA_VERIFY_URLS, timeoutMs: CAPTCHA_TIMEOUT_MS },
      exportsPerPerson: DEFAULT_EXPORTS_PER_PERSON,
      longPolls: DEFAULT_LONG_POLL_LIMITS,
      files: await testFileSettings(),
    },
    background: BACKGROUND_DEFAULTS,
    log: QUIET_LOG,
    mailLog: QUIET_LOG,
    metrics: NO_METRICS,
    outage: new DatabaseOutage(db, QUIET_LOG),
    mail: { smtpUrl: undefined, from: 'lfk@lfk.test' },
  });
}

/** A task that records its stop in `stopped`, and fails it when `fails`. */
function recorded(name: string, stopped: string[], fails = false): BackgroundTask {
  return {
    name,
    start() {},
    async stop() {
      stopped.push(name);
      if (fails) throw new Error(`${name} could not stop`);
    },
  };
}

describe('the background tasks', () => {
  it('stop in the order of shutdown steps 3 to 17', async () => {
    const { tasks } = await runtime();
    const list = new TaskList(tasks, QUIET_LOG);
    try {
      expect(list.names().reverse()).toEqual(SHUTDOWN_STEPS_3_TO_17);
    } finally {
      await list.stop();
    }
  });

  it('can be woken only where work is queued: the email sender and the webhook worker', async () => {
    const { tasks } = await runtime();
    try {
      expect(tasks.filter((task) => task.wake !== undefined).map((task) => task.name)).toEqual(['email sender', 'webhook worker']);
    } finally {
      await new TaskList(tasks, QUIET_LOG).stop();
    }
  });

  it('wake reaches the task named, and a task that cannot be woken is left alone', () => {
    const woken: string[] = [];
    const queue: BackgroundTask = { name: 'queue', start() {}, wake: () => woken.push('queue'), stop() {} };
    const other: BackgroundTask = { name: 'other queue', start() {}, wake: () => woken.push('other queue'), stop() {} };
    const list = new TaskList([queue, other, { name: 'sweep', start() {}, stop() {} }], QUIET_LOG);
    list.wake('queue');
    list.wake('sweep');
    expect(woken).toEqual(['queue']);
  });

  it('still stops the rest when one fails, logs the step, and throws every failure at the end', async () => {
    const stopped: string[] = [];
    const logged: object[] = [];
    const log = { ...QUIET_LOG, error: (fields: object, message: string) => logged.push({ ...fields, message }) };
    const list = new TaskList([recorded('database', stopped), recorded('email sender', stopped, true), recorded('requests', stopped)], log);
    const failure = await list.stop().then(
      () => null,
      (error: unknown) => error,
    );
    expect(stopped).toEqual(['requests', 'email sender', 'database']);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).errors.map((error: Error) => error.message)).toEqual(['email sender could not stop']);
    expect(logged).toEqual([expect.objectContaining({ step: 'email sender', message: 'shutdown step failed' })]);
  });

  it('refuses two tasks of one name, which wake and the shutdown log could not tell apart', () => {
    expect(() => new TaskList([recorded('sweep', []), recorded('sweep', [])], QUIET_LOG)).toThrow("two background tasks are named 'sweep'");
  });
});
