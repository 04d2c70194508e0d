/**
 * The in-memory cache of API key verifications (issue 5): a revoked key is refused on the very next
 * request in the process that revoked it, and in every other process as soon as PostgreSQL tells
 * it; where nothing can tell it (PGlite raw SQL), the TTL bounds how long it is trusted; a lost
 * notification channel makes the cache step aside rather than serve what it may have missed.
 */
import type { ChildProcess } from 'node:child_process';
import { generateApiKey } from '@lfk/api';
import { newId } from '@lfk/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Res, spawnServerProcess, startTestServer, TEST_DATABASE_URL, type TestServer, until } from '@lfk/testing';

const LIMITS_OFF = {
  LFK_RATE_LIMIT_ANONYMOUS_FORMS: 'off',
  LFK_RATE_LIMIT_LOGIN: 'off',
  LFK_RATE_LIMIT_KEY_FAILURES: 'off',
  LFK_RATE_LIMIT_BROWSER_SUBMISSIONS: 'off',
};

const formBody = { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] };

/** A well-shaped form id that names no form: a good key gets 404 form_not_found, a bad one 401. */
const PROBE = newId('form');

/**
 * On PostgreSQL the cache is off until the process listens for revocations: wait for that, so the
 * tests exercise the cache rather than the database. PGlite has no channel and the cache is on at once.
 */
async function cacheOn(t: TestServer): Promise<void> {
  if (!TEST_DATABASE_URL) return;
  await until('the in-process server to hear key revocations', () =>
    t.logs.some((line) => line.includes('hearing key revocations; key cache on')),
  );
}

const probe = (t: TestServer, key: string) => t.request('GET', `/v1/forms/${PROBE}`, { token: key });

function expectAccepted(res: { status: number; json: any }): void {
  expect(res.status).toBe(404);
  expect(res.json.error.code).toBe('form_not_found');
}

function expectRefused(res: { status: number; json: any }): void {
  expect(res.status).toBe(401);
  expect(res.json.error.code).toBe('invalid_api_key');
}

/** An answer as a client sees it, but for what differs between any two requests. */
function comparable(res: Res) {
  const requestId = res.headers['x-request-id'] as string;
  expect(requestId).toBeTruthy();
  const { date: _date, 'x-request-id': _id, ...headers } = res.headers;
  return { status: res.status, body: res.body.replaceAll(requestId, 'REQ'), headers };
}

function badChecksum(key: string): string {
  return `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
}

async function revoke(t: TestServer, owner: { token: string; workspaceId: string }, keyId: string): Promise<void> {
  const res = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`, { token: owner.token });
  expect(res.status).toBe(204);
}

/**
 * Revokes through the API, and on PostgreSQL also waits until this process has heard its own
 * notification (one more forget), so that a later count of cached entries cannot race with it.
 */
async function revokeAndSettle(t: TestServer, owner: { token: string; workspaceId: string }, keyId: string): Promise<void> {
  const cache = t.server.services.apiKeyCache;
  const before = cache.generation();
  await revoke(t, owner, keyId);
  if (TEST_DATABASE_URL) await until('this process to hear its own revocation', () => cache.generation() >= before + 2);
}

describe('in the process that revokes', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ LFK_KEY_CACHE_TTL: '3600' });
    await cacheOn(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a cached key revoked through the API is refused on the very next request, exactly like an unknown key', async () => {
    const owner = await t.signup();
    const { key, id } = await t.createKey(owner.token, owner.workspaceId);
    const before = t.server.services.apiKeyCache.size.valid;
    expectAccepted(await probe(t, key));
    // Served from memory from now on (for an hour).
    expect(t.server.services.apiKeyCache.size.valid).toBe(before + 1);
    expectAccepted(await probe(t, key));

    await revoke(t, owner, id);
    const next = await probe(t, key);
    expectRefused(next);
    const unknown = await probe(t, generateApiKey().key);
    expect(comparable(next)).toEqual(comparable(unknown));

    // And it stays refused: the refusal is what is remembered now.
    for (let i = 0; i < 5; i++) expect(comparable(await probe(t, key))).toEqual(comparable(unknown));
    const stored = await t.sql<{ revoked_at: unknown }>('select revoked_at from api_keys where id = ?', [id]);
    expect(stored[0]!.revoked_at).not.toBeNull();
  });

  it('with requests in flight during the revoke, every request that starts after the revoke answered is refused', async () => {
    const owner = await t.signup();
    const { key, id } = await t.createKey(owner.token, owner.workspaceId);
    expectAccepted(await probe(t, key));

    let revokeAnswered = false;
    let stop = false;
    let startedAfter = 0;
    const seen: { startedAfterRevoke: boolean; status: number; code: string }[] = [];
    const worker = async () => {
      // Bounded, in case the revoke never answers.
      while (!stop && seen.length < 20_000) {
        const startedAfterRevoke = revokeAnswered;
        if (startedAfterRevoke) startedAfter++;
        const res = await probe(t, key);
        seen.push({ startedAfterRevoke, status: res.status, code: res.json?.error?.code });
        // A cached answer needs no I/O: yield, or timers and the revoke's own I/O would starve.
        await new Promise((r) => setImmediate(r));
      }
    };
    const workers = Array.from({ length: 20 }, worker);
    // Let the load get going before the revoke.
    await until('requests before the revoke', () => seen.length >= 100);
    await revoke(t, owner, id);
    revokeAnswered = true;
    const atRevoke = seen.length;
    await until('requests after the revoke', () => startedAfter >= 200);
    stop = true;
    await Promise.all(workers);

    const before = seen.filter((s) => !s.startedAfterRevoke);
    const after = seen.filter((s) => s.startedAfterRevoke);
    expect(atRevoke).toBeGreaterThanOrEqual(100);
    expect(after.length).toBeGreaterThanOrEqual(200);
    // Before the revoke answered, a request may see the key either way…
    for (const s of before) expect([`404 form_not_found`, `401 invalid_api_key`]).toContain(`${s.status} ${s.code}`);
    expect(before.filter((s) => s.status === 404).length).toBeGreaterThanOrEqual(100);
    // …after, never accepted.
    expect(after.filter((s) => s.status !== 401 || s.code !== 'invalid_api_key')).toEqual([]);
  });

  it('unknown, revoked and malformed keys are refused alike, every time, cached or not; malformed ones never enter the cache', async () => {
    const owner = await t.signup();
    const { key: revoked, id } = await t.createKey(owner.token, owner.workspaceId);
    expectAccepted(await probe(t, revoked));
    await revokeAndSettle(t, owner, id);
    const unknown = generateApiKey().key;
    const malformed = [badChecksum(generateApiKey().key), 'lfk_short', 'not-a-key', `lfk_${'x'.repeat(500)}`, `${unknown}x`];
    const cache = t.server.services.apiKeyCache;

    const reference = comparable(await probe(t, generateApiKey().key));
    expect(reference.status).toBe(401);
    expect(JSON.parse(reference.body).error.code).toBe('invalid_api_key');

    // Malformed keys are refused before the cache: nothing is stored for them, however often they come.
    const refusedBefore = cache.size.refused;
    for (let round = 0; round < 3; round++) {
      for (const key of malformed) expect(comparable(await probe(t, key)), key).toEqual(reference);
    }
    expect(cache.size.refused).toBe(refusedBefore);

    // A well-formed unknown key is asked of the database once (uncached), then answered from memory (cached).
    expect(comparable(await probe(t, unknown))).toEqual(reference);
    expect(cache.size.refused).toBe(refusedBefore + 1);
    for (let round = 0; round < 3; round++) expect(comparable(await probe(t, unknown))).toEqual(reference);
    expect(cache.size.refused).toBe(refusedBefore + 1);

    // The revoked key was forgotten when it was revoked; its refusal is cached on first use, then reused.
    expect(comparable(await probe(t, revoked))).toEqual(reference);
    expect(cache.size.refused).toBe(refusedBefore + 2);
    for (let round = 0; round < 3; round++) expect(comparable(await probe(t, revoked))).toEqual(reference);
    expect(cache.size.refused).toBe(refusedBefore + 2);
  });
});

describe('with the cache off, every answer comes from the database', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ LFK_KEY_CACHE_TTL: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses unknown, revoked and malformed keys alike, repeatedly, and caches nothing', async () => {
    const owner = await t.signup();
    const { key: revoked, id } = await t.createKey(owner.token, owner.workspaceId);
    const { key: good } = await t.createKey(owner.token, owner.workspaceId);
    await revoke(t, owner, id);
    const reference = comparable(await probe(t, generateApiKey().key));
    expect(reference.status).toBe(401);
    for (let round = 0; round < 3; round++) {
      for (const key of [generateApiKey().key, revoked, badChecksum(revoked), 'not-a-key']) {
        expect(comparable(await probe(t, key)), key).toEqual(reference);
      }
      expectAccepted(await probe(t, good));
    }
    expect(t.server.services.apiKeyCache.size).toEqual({ valid: 0, refused: 0 });
  });
});

describe.runIf(!TEST_DATABASE_URL)('revoked behind the server\'s back (PGlite: nothing is notified)', () => {
  it('with LFK_KEY_CACHE_TTL=1 the key is served from memory, then refused once the TTL has passed', async () => {
    const t = await startTestServer({ LFK_KEY_CACHE_TTL: '1' });
    try {
      const owner = await t.signup();
      const { key, id } = await t.createKey(owner.token, owner.workspaceId);
      expectAccepted(await probe(t, key));
      await t.sql('update api_keys set revoked_at = now() where id = ?', [id]);
      // The database says revoked; memory (trusted for a second) still says valid.
      expectAccepted(await probe(t, key));
      await until('the revoked key to be refused', async () => (await probe(t, key)).status === 401);
      expectRefused(await probe(t, key));
      // The cache still works for other keys.
      const { key: other } = await t.createKey(owner.token, owner.workspaceId);
      expectAccepted(await probe(t, other));
      expect(t.server.services.apiKeyCache.size.valid).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
    }
  });

  it.each<Record<string, string>>([
    { LFK_KEY_CACHE_TTL: '0' },
    { LFK_KEY_CACHE_SIZE: '0', LFK_KEY_CACHE_TTL: '3600' },
  ])('with the cache off (%o) a raw SQL revoke is seen on the very next request', async (env) => {
    const t = await startTestServer(env);
    try {
      const owner = await t.signup();
      const { key, id } = await t.createKey(owner.token, owner.workspaceId);
      expectAccepted(await probe(t, key));
      expectAccepted(await probe(t, key));
      await t.sql('update api_keys set revoked_at = now() where id = ?', [id]);
      expectRefused(await probe(t, key));
      expect(t.server.services.apiKeyCache.size).toEqual({ valid: 0, refused: 0 });
    } finally {
      await t.close();
    }
  });
});

describe('bounded memory (LFK_KEY_CACHE_SIZE=3)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ LFK_KEY_CACHE_SIZE: '3', LFK_KEY_CACHE_TTL: '3600' });
    await cacheOn(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('holds at most 3 valid and 3 refused keys, and evicted keys still answer correctly', async () => {
    const cache = t.server.services.apiKeyCache;
    const workspaces: { owner: { token: string; workspaceId: string }; formId?: string }[] = [];
    for (let w = 0; w < 2; w++) workspaces.push({ owner: await t.signup() });
    const keys: { key: string; ws: number }[] = [];
    for (let w = 0; w < 2; w++) {
      for (let i = 0; i < 5; i++) keys.push({ key: (await t.createKey(workspaces[w]!.owner.token, workspaces[w]!.owner.workspaceId)).key, ws: w });
    }
    // A form in each workspace, made with that workspace's key: a key must read its own and not the other.
    for (let w = 0; w < 2; w++) {
      const created = await t.request('POST', '/v1/forms', { token: keys.find((k) => k.ws === w)!.key, body: formBody });
      expect(created.status).toBe(201);
      workspaces[w]!.formId = created.json.id;
    }
    const unknown = Array.from({ length: 50 }, () => generateApiKey().key);

    for (let round = 0; round < 3; round++) {
      for (const [i, { key, ws }] of keys.entries()) {
        const own = await t.request('GET', `/v1/forms/${workspaces[ws]!.formId}`, { token: key });
        expect(own.status, `round ${round} key ${i}`).toBe(200);
        expect(own.json.workspace_id).toBe(workspaces[ws]!.owner.workspaceId);
        const foreign = await t.request('GET', `/v1/forms/${workspaces[1 - ws]!.formId}`, { token: key });
        expect(foreign.status, `round ${round} key ${i}`).toBe(404);
        expect(foreign.json.error.code).toBe('form_not_found');
        expect(cache.size.valid).toBeLessThanOrEqual(3);
        // Interleave refused keys, so both kinds churn together.
        for (const bad of unknown.slice(i * 5, i * 5 + 5)) {
          expectRefused(await probe(t, bad));
          expect(cache.size.refused).toBeLessThanOrEqual(3);
        }
      }
      // The cache is in use, filled to its bound, not beyond.
      expect(cache.size).toEqual({ valid: 3, refused: 3 });
    }

    // Every unknown key, evicted long ago, is still refused; every valid key still accepted.
    for (const bad of unknown) expectRefused(await probe(t, bad));
    for (const { key } of keys) expectAccepted(await probe(t, key));
    expect(cache.size).toEqual({ valid: 3, refused: 3 });
  });
});

interface OtherProcess {
  child: ChildProcess;
  output: () => string;
  probe(key: string): Promise<{ status: number; json: any }>;
  stop(): Promise<void>;
}

/** A second lfk process (the real main.ts) on the first one's database, trusting a key for an hour. */
async function otherProcess(databaseUrl: string): Promise<OtherProcess> {
  const port = await freePort();
  const { child, output } = await spawnServerProcess({
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    LFK_KEY_CACHE_TTL: '3600',
    ...LIMITS_OFF,
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
function logLines(output: string): { level: number; msg: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

/** Runs statements in one transaction on a connection of its own. */
async function inTransaction<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
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
async function revokeSilently(url: string, keyId: string): Promise<void> {
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
function twoProcesses(): { a: TestServer; b: OtherProcess; url: string } {
  const both = {} as { a: TestServer; b: OtherProcess; url: string };
  beforeAll(async () => {
    both.a = await startTestServer({ LFK_KEY_CACHE_TTL: '3600' });
    await cacheOn(both.a);
    both.url = both.a.server.config.databaseUrl!;
    both.b = await otherProcess(both.url);
    await until('the other process to hear key revocations', () => both.b.output().includes('hearing key revocations; key cache on'));
  });
  afterAll(async () => {
    await both.b?.stop();
    await both.a?.close();
  });
  return both;
}

describe.runIf(!!TEST_DATABASE_URL)('in another process on the same PostgreSQL database', () => {
  const both = twoProcesses();

  it('serves a key from memory: a revoke nobody is told of goes unseen for the TTL (the control)', async () => {
    const { a, b, url } = both;
    const owner = await a.signup();
    const { key, id } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(key));
    await revokeSilently(url, id);
    expectRefused(await probe(a, key)); // uncached in A: the database says revoked…
    expectAccepted(await b.probe(key)); // …and B, trusting its memory for an hour, has not heard.
  });

  it('refuses a key revoked through the first process\'s API, told by the database', async () => {
    const { a, b } = both;
    const owner = await a.signup();
    const { key, id } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(key));
    await revoke(a, owner, id);
    expectRefused(await probe(a, key));
    await until('the other process to refuse the revoked key', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
  });

  it('refuses a key revoked by raw SQL (the trigger notifies)', async () => {
    const { a, b, url } = both;
    const owner = await a.signup();
    const { key, id } = await a.createKey(owner.token, owner.workspaceId);
    const { key: bystander } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(bystander));
    await inTransaction(url, (client) => client.query('update api_keys set revoked_at = now() where id = $1', [id]));
    await until('the other process to refuse the key revoked by SQL', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
    expectAccepted(await b.probe(bystander));
  });

  it('refuses a key whose row is deleted by raw SQL', async () => {
    const { a, b, url } = both;
    const owner = await a.signup();
    const { key, id } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(key));
    await inTransaction(url, (client) => client.query('delete from api_keys where id = $1', [id]));
    await until('the other process to refuse the deleted key', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
  });
});

describe.runIf(!!TEST_DATABASE_URL)('a lost notification connection fails safe', () => {
  const both = twoProcesses();

  it('a revocation whose notification is lost with the connection is still refused, and the cache comes back', async () => {
    const { a, b, url } = both;
    const owner = await a.signup();
    const { key, id } = await a.createKey(owner.token, owner.workspaceId);
    const { key: silentlyRevoked, id: silentId } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(key));
    expectAccepted(await b.probe(silentlyRevoked));
    // A revocation B never hears of, before the loss: B holds it as valid.
    await revokeSilently(url, silentId);
    expectAccepted(await b.probe(silentlyRevoked));
    const linesBefore = logLines(b.output()).length;

    // The NOTIFY goes out at commit, after every listener was killed: nobody receives it.
    const terminated = await inTransaction(url, async (client) => {
      await client.query('update api_keys set revoked_at = now() where id = $1', [id]);
      const res = await client.query<{ killed: boolean }>(
        `select pg_terminate_backend(pid) as killed from pg_stat_activity
          where application_name = 'lfk-listener' and datname = current_database()`,
      );
      return res.rows;
    });
    // A's listener and B's.
    expect(terminated.length).toBeGreaterThanOrEqual(2);
    expect(terminated.every((row) => row.killed)).toBe(true);

    await until('the other process to refuse the revoked key', async () => (await b.probe(key)).status === 401);
    expectRefused(await b.probe(key));
    // What B missed before the loss is not served from memory either.
    expectRefused(await b.probe(silentlyRevoked));

    await until('the other process to listen again', () => {
      const after = logLines(b.output()).slice(linesBefore);
      const lost = after.findIndex((l) => l.msg === 'lost the key revocation channel; key cache off until it is back');
      return lost >= 0 && after.slice(lost + 1).some((l) => l.msg === 'hearing key revocations; key cache on');
    });
    const after = logLines(b.output()).slice(linesBefore);
    const lostLine = after.find((l) => l.msg.startsWith('lost the key revocation channel'))!;
    expect(lostLine.level).toBe(40); // warn
    const hearing = after.filter((l) => l.msg === 'hearing key revocations; key cache on');
    expect(hearing.every((l) => l.level === 30)).toBe(true); // info
    expect(b.output()).toContain('lost the key revocation channel; key cache off until it is back');

    // Both stay refused; a fresh key works, and is served from memory again (the cache is back on).
    expectRefused(await b.probe(key));
    expectRefused(await b.probe(silentlyRevoked));
    const { key: fresh, id: freshId } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(fresh));
    expectAccepted(await b.probe(fresh));
    await revokeSilently(url, freshId);
    expectAccepted(await b.probe(fresh));
    // And notifications are heard again on the new connection.
    const { key: later, id: laterId } = await a.createKey(owner.token, owner.workspaceId);
    expectAccepted(await b.probe(later));
    await revoke(a, owner, laterId);
    await until('the other process to refuse a key revoked after the reconnection', async () => (await b.probe(later)).status === 401);
  });
});
