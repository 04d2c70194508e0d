/**
 * Background writes (API keys' `last_used_at`) when the database fails for a moment: the failure
 * is logged, the batch is written with the next one, and shutdown still closes the database.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import {
  adminQuery,
  confirmPrintedAddress,
  databaseForProcess,
  ENGINE,
  freePort,
  PASSWORD,
  spawnServerProcess,
  startTestServer,
  TEST_DATABASE_URL,
  type TestServer,
  until,
} from '@lfk/server/testing';

const FAILED_BATCH_LOG = 'could not write key uses';
const OUTAGE_STARTS = 'database unreachable: requests that need it answer 503 service_unavailable until it is back';

/**
 * The database goes away for the server: on PostgreSQL, it stops taking connections and the
 * server's own are cut (what a restart or a failover looks like from here); on PGlite, which
 * lives inside the process, the `table` the background work uses disappears. Resolves to the way back.
 */
async function outage(t: TestServer, table: string): Promise<() => Promise<void>> {
  if (ENGINE === 'pglite') {
    await t.sql(`alter table ${table} rename to ${table}_offline`);
    return async () => {
      // Once the server has closed, its in-memory database is gone with it: nothing to bring back.
      if (await t.server.db.orm.isConnected()) await t.sql(`alter table ${table}_offline rename to ${table}`);
    };
  }
  const name = new URL(t.server.config.databaseUrl!).pathname.slice(1);
  await adminQuery(TEST_DATABASE_URL!, `alter database ${name} with allow_connections false`);
  await adminQuery(TEST_DATABASE_URL!, 'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
  return async () => void (await adminQuery(TEST_DATABASE_URL!, `alter database ${name} with allow_connections true`));
}

async function lastUsedAt(t: TestServer, keyId: string): Promise<Date | null> {
  const [row] = await t.sql<{ last_used_at: string | Date | null }>('select last_used_at from api_keys where id = ?', [keyId]);
  return row!.last_used_at === null ? null : new Date(row!.last_used_at);
}

describe(`a failed last_used_at batch (${ENGINE})`, () => {
  it('is logged, written with the next batch, and does not stop shutdown from closing the database', async () => {
    // No timer flushes during the test: each batch is written when the test asks, so the order is certain.
    const t = await startTestServer({}, { config: { lastUsedFlushMs: 3_600_000 }, database: 'own' });
    const { key, id: keyId } = await t.signupWithKey();

    const beforeUse = Date.now();
    const used = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Contact', schema: [{ name: 'email', type: 'email' }] } });
    expect(used.status).toBe(201);
    const afterUse = Date.now();

    const restore = await outage(t, 'api_keys');
    await expect(t.server.services.keyUses.flush()).rejects.toThrow();
    const lines = t.logs.map((line) => JSON.parse(line));
    const logged = lines.find((entry) => entry.msg?.includes(FAILED_BATCH_LOG));
    if (ENGINE === 'pglite' || logged) expect(logged).toMatchObject({ level: 40, keys: 1 });
    // On PostgreSQL the database itself is away: a failure the driver reads as a lost connection
    // goes to the one outage record (logged once, as for requests) instead of a line per batch.
    else expect(lines.find((entry) => entry.msg === OUTAGE_STARTS)).toMatchObject({ level: 50 });
    await restore();

    // The failed batch's data is written with the next batch.
    await until('the database back', async () => ((await t.server.db.isReady()) ? true : undefined));
    await t.server.services.keyUses.flush();
    const written = await lastUsedAt(t, keyId);
    expect(written).not.toBeNull();
    expect(written!.getTime()).toBeGreaterThanOrEqual(beforeUse);
    expect(written!.getTime()).toBeLessThanOrEqual(afterUse);

    // And later uses are written too: the recorder did not stop.
    const again = await t.request('GET', `/v1/forms/${used.json.id}`, { token: key });
    expect(again.status).toBe(200);
    await t.server.services.keyUses.flush();
    expect((await lastUsedAt(t, keyId))!.getTime()).toBeGreaterThan(written!.getTime());

    await t.close();
    expect(await t.server.db.orm.isConnected()).toBe(false);
    expect(t.logs.join('\n')).not.toContain('shutdown failed');
  });

  it('that fails at shutdown is logged as lost, and the database is still closed', async () => {
    const t = await startTestServer({}, { config: { lastUsedFlushMs: 3_600_000 }, database: 'own' });
    const { key } = await t.signupWithKey();
    const used = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Contact', schema: [{ name: 'email', type: 'email' }] } });
    expect(used.status).toBe(201);

    const restore = await outage(t, 'api_keys');
    try {
      await t.server.close();
      const lost = t.logs.map((line) => JSON.parse(line)).find((entry) => entry.msg?.includes('key uses not written at shutdown'));
      expect(lost).toMatchObject({ level: 50, keys: 1 });
      expect(await t.server.db.orm.isConnected()).toBe(false);
    } finally {
      await restore();
      await t.close();
    }
  });
});

describe(`the email sender while the database is away (${ENGINE})`, () => {
  it('logs the failed polls and sends the waiting mail once the database is back', async () => {
    const t = await startTestServer({}, { outbox: { pollMs: 100 }, database: 'own' });
    // Not due yet: a sender that took it before the database went away would find it sent, or
    // locked for its retry, when it comes back, whichever came first on a busy machine.
    const now = new Date().toISOString();
    await t.sql(`insert into outbox_emails (id, kind, "to", subject, body, next_attempt_at, created_at) values (?, ?, ?, ?, ?, ?, ?)`, [
      'evt_waiting_mail',
      'verification',
      'owner@example.com',
      'Verify',
      'Hello',
      '2999-01-01T00:00:00Z',
      now,
    ]);
    const restore = await outage(t, 'outbox_emails');
    await until('a failed poll in the log', () => (t.logs.some((line) => line.includes('outbox: could not reach the database')) ? true : undefined));
    await restore();
    // Due now, after the failed polls: the sender, still polling, takes it.
    await t.sql('update outbox_emails set next_attempt_at = ? where id = ?', [new Date().toISOString(), 'evt_waiting_mail']);
    await until('the waiting mail sent', async () => {
      const [row] = await t.sql<{ status: string }>('select status from outbox_emails where id = ?', ['evt_waiting_mail']);
      return row!.status === 'sent' ? true : undefined;
    });
    await t.close();
    expect(await t.server.db.orm.isConnected()).toBe(false);
  });
});

/** The real process (`npm start`): its own timer writes the batches, SIGTERM stops it. */
describe.runIf(!!TEST_DATABASE_URL)('a server process whose last_used_at batch failed once', () => {
  const children: ChildProcess[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const drop of drops) await drop();
  });

  it("writes the key's use once the table is back, then exits 0 on SIGTERM with the database closed", async () => {
    const database = (await databaseForProcess())!;
    drops.push(database.drop);
    const port = await freePort();
    const { child, output } = await spawnServerProcess({ PORT: String(port), DATABASE_URL: database.url, LFK_KEY_CACHE_TTL: '3600' });
    children.push(child);
    const base = `http://127.0.0.1:${port}`;
    const call = async (method: string, path: string, token: string | undefined, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, json: (await res.json()) as any };
    };
    const signup = await call('POST', '/v1/auth/signup', undefined, { email: 'owner@example.com', password: PASSWORD });
    await confirmPrintedAddress(base, output);
    const created = await call('POST', `/v1/workspaces/${signup.json.workspace.id}/api-keys`, signup.json.session_token, {});
    const { key, id: keyId } = created.json as { key: string; id: string };
    const form = await call('POST', '/v1/forms', key, { name: 'Contact', schema: [{ name: 'email', type: 'email' }] });
    expect(form.status).toBe(201);
    const lastUsed = async () =>
      (await adminQuery<{ last_used_at: Date | null }>(database.url, 'select last_used_at from api_keys where id = $1', [keyId]))[0]!.last_used_at;

    // The table the batches write is away; the key, known to the server's cache, still works meanwhile.
    await adminQuery(database.url, 'alter table api_keys rename to api_keys_offline');
    const usedWhileAway = Date.now();
    expect((await call('GET', `/v1/forms/${form.json.id}`, key)).status).toBe(200);
    await until('the failed batch in the log', () => (output().includes(FAILED_BATCH_LOG) ? true : undefined), 30_000);
    await adminQuery(database.url, 'alter table api_keys_offline rename to api_keys');

    const written = await until(
      'the batch written',
      async () => {
        const at = await lastUsed();
        return at && at.getTime() >= usedWhileAway ? at : undefined;
      },
      30_000,
    );
    expect(written).toBeInstanceOf(Date);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).not.toContain('shutdown failed');
    expect(output()).toContain('lfk stopped');
  });
});
