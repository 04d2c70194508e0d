/**
 * What the key-cache files share: probing a key, revoking it (through the API or behind the server's
 * back), and a second lfk process on the same PostgreSQL database.
 *
 * The in-memory cache of API key verifications (issue 5): a revoked key is refused on the very next
 * request in the process that revoked it, and in every other process as soon as PostgreSQL tells
 * it; where nothing can tell it (PGlite raw SQL), the TTL bounds how long it is trusted; a lost
 * notification channel makes the cache step aside rather than serve what it may have missed.
 */
import type { ChildProcess } from 'node:child_process';
import { newId } from '@lfk/db';
import { RATE_LIMITS_OFF } from '@lfk/server';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
export { revoke, revokeAndSettle } from '../keys/fixtures.ts';
import { freePort, type Res, spawnServerProcess, TEST_DATABASE_URL, type TestServer, until, useTestServer } from '@lfk/server/testing';

export const formBody = { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] };

/** A well-shaped form id that names no form: a good key gets 404 form_not_found, a bad one 401. */
export const PROBE = newId('form');

/**
 * On PostgreSQL the cache is off until the process listens for revocations: wait for that, so the
 * tests exercise the cache rather than the database. PGlite has no channel and the cache is on at once.
 */
export async function cacheOn(t: TestServer): Promise<void> {
  if (!TEST_DATABASE_URL) return;
  await until('the in-process server to hear key revocations', () => t.logs.some((line) => line.includes('hearing key revocations; key cache on')));
}

export const probe = (t: TestServer, key: string) => t.request('GET', `/v1/forms/${PROBE}`, { token: key });

export function expectAccepted(res: { status: number; json: any }): void {
  expect(res.status).toBe(404);
  expect(res.json.error.code).toBe('form_not_found');
}

export function expectRefused(res: { status: number; json: any }): void {
  expect(res.status).toBe(401);
  expect(res.json.error.code).toBe('invalid_api_key');
}

/** An answer as a client sees it, but for what differs between any two requests. */
export function comparable(res: Res) {
  const requestId = res.headers['x-request-id'] as string;
  expect(requestId).toBeTruthy();
  const { date: _date, 'x-request-id': _id, ...headers } = res.headers;
  return { status: res.status, body: res.body.replaceAll(requestId, 'REQ'), headers };
}

export function badChecksum(key: string): string {
  return `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
}

export interface OtherProcess {
  child: ChildProcess;
  output: () => string;
  probe(key: string): Promise<{ status: number; json: any }>;
  stop(): Promise<void>;
}

/** A second lfk process (the real main.ts) on the first one's database, trusting a key for an hour. */
export async function otherProcess(databaseUrl: string): Promise<OtherProcess> {
  const port = await freePort();
  const { child, output } = await spawnServerProcess({
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    LFK_KEY_CACHE_TTL: '3600',
    ...RATE_LIMITS_OFF,
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    output,
    async probe(key) {
      const res = await fetch(`${base}/v1/forms/${PROBE}`, { headers: { authorization: `Bearer ${key}` } });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The process's JSON log lines (main.ts also writes a plain banner, skipped). */
export function logLines(output: string): { level: number; msg: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

/** Runs statements in one transaction on a connection of its own. */
export async function inTransaction<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } finally {
    await client.end();
  }
}

/**
 * Revokes a key without notifying anyone: the trigger is disabled inside the transaction. A control
 * showing that the other process answers from memory, so what refuses a key there is the notification.
 */
export async function revokeSilently(url: string, keyId: string): Promise<void> {
  await inTransaction(url, async (client) => {
    await client.query('alter table api_keys disable trigger api_keys_notify_revoked');
    await client.query('update api_keys set revoked_at = now() where id = $1', [keyId]);
    await client.query('alter table api_keys enable trigger api_keys_notify_revoked');
  });
}

/**
 * A test server A (TTL 1 h) and the real main.ts as process B on A's PostgreSQL database, both
 * hearing revocations; started before the describe block's tests and stopped after them.
 */
export function twoProcesses(): { a: TestServer; b: OtherProcess; url: string } {
  const both = { a: useTestServer({ LFK_KEY_CACHE_TTL: '3600' }) } as { a: TestServer; b: OtherProcess; url: string };
  beforeAll(async () => {
    await cacheOn(both.a);
    both.url = both.a.server.config.databaseUrl!;
    both.b = await otherProcess(both.url);
    await until('the other process to hear key revocations', () => both.b.output().includes('hearing key revocations; key cache on'));
  });
  afterAll(async () => {
    await both.b?.stop();
  });
  return both;
}
