import { AsyncLocalStorage } from 'node:async_hooks';
/**
 * What the key-lifecycle files share (issue 14): a clock the tests turn, a server on it whose
 * background work runs only when a test asks, a second replica on the same PostgreSQL database,
 * and a count of the SQL statements a server sends.
 */
import { Writable } from 'node:stream';
import { openDatabase } from '@lfk/db';
import pg from 'pg';
import { createServer, type LfkServer } from '@lfk/server';
import { newId } from '@lfk/db';
import { startTestServer, TEST_DATABASE_URL, type TestClock, type TestServer, type TestServerOptions, until } from '@lfk/server/testing';
import { afterAll, beforeAll, expect } from 'vitest';

// The clock lives in @lfk/testing, which the api package's rule tests share too.
export { DAY, HOUR, type TestClock, testClock } from '@lfk/server/testing';

/** Background work (batched writes, the lifecycle sweep) never runs on its own: each test runs it when it means to. */
export const QUIET = { lastUsedFlushMs: 3_600_000, keyLifecycleSweepMs: 3_600_000 };

/** A test server on `clock`, trusting keys for an hour, with its background work quiet. */
function startKeysServer(clock: TestClock, env: Record<string, string> = {}, options: Pick<TestServerOptions, 'database'> = {}): Promise<TestServer> {
  return startTestServer({ LFK_KEY_CACHE_TTL: '3600', ...env }, { ...options, config: { ...QUIET, now: clock.now } });
}

/**
 * The file's keys server on `clock` (a long key cache, so tests see what the cache does), started
 * before its tests with the cache on, and closed after them.
 */
export function useKeysServer(clock: TestClock, env: Record<string, string> = {}, options: Pick<TestServerOptions, 'database'> = {}): TestServer {
  const handle = {} as TestServer;
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startKeysServer(clock, env, options);
    Object.assign(handle, started);
    await cacheOn(started.logs);
  });
  afterAll(async () => {
    await started?.close();
  });
  return handle;
}

/**
 * On PostgreSQL the cache is off until the process listens for revocations: wait for it, so the
 * tests exercise the cache rather than the database.
 */
export async function cacheOn(logs: string[]): Promise<void> {
  if (!TEST_DATABASE_URL) return;
  await until('the server to hear key revocations', () => logs.some((line) => line.includes('hearing key revocations; key cache on')));
}

export interface Replica {
  server: LfkServer;
  logs: string[];
  /** `PROBE` with `key`, from `remoteAddress` (127.0.0.1 unless given). */
  probe(key: string, remoteAddress?: string): Promise<{ status: number; body: string; json: any }>;
  close(): Promise<void>;
}

/** A second lfk server, with its own pool, cache and notification channel, on `t`'s PostgreSQL database. */
export async function secondReplica(t: TestServer, clock: TestClock): Promise<Replica> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = { ...t.server.config, now: clock.now };
  const db = await openDatabase({ databaseUrl: config.databaseUrl });
  const server = await createServer(config, { db, logStream });
  await cacheOn(logs);
  return {
    server,
    logs,
    async probe(key, remoteAddress) {
      const res = await server.app.inject({ method: 'GET', url: `/v1/forms/${PROBE}`, headers: { authorization: `Bearer ${key}` }, remoteAddress });
      return { status: res.statusCode, body: res.body, json: res.body ? JSON.parse(res.body) : undefined };
    },
    close: () => server.close(),
  };
}

/** A well-shaped form id that names no form: a good key gets 404 form_not_found, a refused one 401. */
export const PROBE = newId('form');

export const probe = (t: TestServer, key: string, headers: Record<string, string> = {}) => t.request('GET', `/v1/forms/${PROBE}`, { token: key, headers });

export function expectAccepted(res: { status: number; json: any }): void {
  expect(res.status, JSON.stringify(res.json)).toBe(404);
  expect(res.json.error.code).toBe('form_not_found');
}

export function expectRefused(res: { status: number; json: any }): void {
  expect(res.status, JSON.stringify(res.json)).toBe(401);
  expect(res.json.error.code).toBe('invalid_api_key');
}

/** A refusal's body without its request id: identical for every refused key. */
export const refusalBody = (res: { body: string; headers: Record<string, unknown> }) => res.body.replaceAll(String(res.headers['x-request-id']), 'REQ');

/** Every SQL statement `server` sends from now on, until `stop()`. */
export function countStatements(server: LfkServer): { statements: string[]; writes: () => string[]; stop: () => void } {
  const connection = server.db.orm.em.getConnection() as unknown as { executeQuery: (...args: unknown[]) => Promise<unknown> };
  const original = connection.executeQuery;
  const statements: string[] = [];
  // Only what the test's own calls send from here on: the server's queue workers and sweeps run in
  // async contexts made before, and their polls (a busy machine may land one in the window) are not
  // the request's statements.
  const mine = {};
  countingContext.enterWith(mine);
  connection.executeQuery = function (this: unknown, ...args: unknown[]) {
    if (countingContext.getStore() === mine) statements.push(String(args[0]));
    return original.apply(this, args);
  };
  // Prepared statements (`runPrepared`) go to MikroORM's pool on PostgreSQL, its only callers of Pool#query.
  const poolQuery = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    if (countingContext.getStore() === mine) statements.push((args[0] as { text: string }).text);
    return (poolQuery as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof poolQuery;
  return {
    statements,
    writes: () => statements.filter((sql) => /^\s*(insert|update|delete|with)\b/i.test(sql)),
    stop: () => {
      connection.executeQuery = original;
      pg.Pool.prototype.query = poolQuery;
      countingContext.enterWith(undefined);
    },
  };
}

const countingContext = new AsyncLocalStorage<object | undefined>();

export async function createKey(
  t: TestServer,
  owner: { token: string; workspaceId: string },
  body: Record<string, unknown> = {},
): Promise<{ key: string; id: string; json: any }> {
  const res = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body });
  expect(res.status, res.body).toBe(201);
  return { key: res.json.key, id: res.json.id, json: res.json };
}

export async function getKey(t: TestServer, owner: { token: string; workspaceId: string }, keyId: string): Promise<any> {
  const res = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`, { token: owner.token });
  expect(res.status, res.body).toBe(200);
  return res.json;
}

export const roll = (t: TestServer, owner: { token: string; workspaceId: string }, keyId: string, body: Record<string, unknown> = {}) =>
  t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}/roll`, { token: owner.token, body });

export const updateKey = (t: TestServer, owner: { token: string; workspaceId: string }, keyId: string, body: Record<string, unknown>) =>
  t.request('PATCH', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`, { token: owner.token, body });

/** A day's refusals when there were none, by reason. */
export const NO_REFUSALS = { revoked: 0, expired: 0, rolled: 0, leaked: 0, address_not_allowed: 0 };

/** Today's entry of the key's usage, once what the server noted is written. */
export async function usageToday(t: TestServer, owner: { token: string; workspaceId: string }, keyId: string): Promise<any> {
  await t.server.services.keyUses.flush();
  const res = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}/usage?days=1`, { token: owner.token });
  expect(res.status, res.body).toBe(200);
  return res.json.data[0];
}

export async function auditActions(
  t: TestServer,
  workspaceId: string,
  action: string,
): Promise<{ actor_type: string; actor_id: string; target_id: string; data: any }[]> {
  return t.sql('select actor_type, actor_id, target_id, data from audit_events where workspace_id = ? and action = ? order by id', [workspaceId, action]);
}

export async function emailsTo(t: TestServer, to: string, kind: string): Promise<{ subject: string; body: string | null }[]> {
  return t.sql('select subject, body from outbox_emails where "to" = ? and kind = ? order by id', [to, kind]);
}

export async function revoke(t: TestServer, owner: { token: string; workspaceId: string }, keyId: string): Promise<void> {
  const res = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`, { token: owner.token });
  expect(res.status).toBe(204);
}

/**
 * Revokes through the API, and on PostgreSQL also waits until this process has heard its own
 * notification (one more forget), so that a later count of cached entries cannot race with it.
 */
export async function revokeAndSettle(t: TestServer, owner: { token: string; workspaceId: string }, keyId: string): Promise<void> {
  const cache = t.server.services.apiKeyCache;
  const before = cache.generation();
  await revoke(t, owner, keyId);
  if (TEST_DATABASE_URL) await until('this process to hear its own revocation', () => cache.generation() >= before + 2);
}
