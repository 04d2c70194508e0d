/**
 * A replica killed with SIGKILL mid-delivery (the real server process, `node src/main.ts`) loses
 * nothing: the delivery it held is taken again once its lock lapses, by another replica on
 * PostgreSQL or by the restarted server on the embedded database, with the same `webhook-id`.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@lfk/db';
import {
  confirmPrintedAddress,
  databaseForProcess,
  ENGINE,
  freePort,
  PASSWORD,
  type Receiver,
  spawnServerProcess,
  startReceiver,
  TEST_DATABASE_URL,
  until,
} from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.runIf(ENGINE === 'pglite' || TEST_DATABASE_URL)('a replica killed mid-delivery', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lfk-webhook-crash-'));
  const children: ChildProcess[] = [];
  let database: { url: string; drop: () => Promise<void> } | null = null;
  let receiver: Receiver;
  beforeAll(async () => {
    database = await databaseForProcess();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  async function start(): Promise<{ base: string; output: () => string }> {
    const port = await freePort();
    const { child, output } = await spawnServerProcess({
      PORT: String(port),
      LFK_DATA_DIR: dataDir,
      LFK_WEBHOOK_ALLOW_PRIVATE: 'true',
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    children.push(child);
    return { base: `http://127.0.0.1:${port}`, output };
  }

  async function kill(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** What time does to a dead replica's lock: it lapses (written directly, so the test need not wait a minute). */
  async function lapseLocks(): Promise<void> {
    const db = await openDatabase(database ? { databaseUrl: database.url } : { dataDir });
    try {
      await db.fork().execute("update webhook_deliveries set locked_until = now() - interval '1 second' where locked_until is not null");
    } finally {
      await db.close();
    }
  }

  it('leaves the delivery to another replica, which sends it with the same webhook-id', async () => {
    const { base: a, output } = await start();
    const json = async (base: string, method: string, path: string, token: string | undefined, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: (await res.json()) as any };
    };
    const signup = await json(a, 'POST', '/v1/auth/signup', undefined, { email: `crash-${Date.now()}@example.com`, password: PASSWORD });
    const token = signup.json.session_token as string;
    await confirmPrintedAddress(a, output);
    const form = await json(a, 'POST', '/v1/forms', token, {
      name: 'Crash',
      workspace_id: signup.json.workspace.id,
      schema: [{ name: 'message', type: 'text', required: true }],
      allowed_origins: ['https://site.example'],
    });
    const hook = await json(a, 'POST', `/v1/forms/${form.json.id}/webhooks`, token, { url: receiver.url });
    expect(hook.status).toBe(201);

    // A's attempt hangs at the receiver; A dies holding it.
    receiver.answers.push('hang');
    const res = await fetch(`${a}/v1/forms/${form.json.id}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://site.example' },
      body: JSON.stringify({ message: 'survives' }),
    });
    expect(res.status).toBe(201);
    const [first] = await receiver.waitFor(1);
    // On PostgreSQL a second replica starts beside the first, which holds the delivery; the
    // embedded database has one process, restarted.
    const b = database ? (await start()).base : undefined;
    await kill(children[0]!);
    await lapseLocks();

    const survivor = b ?? (await start()).base;
    const [, second] = await receiver.waitFor(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
    const deliveries = await until('the delivery to be recorded as succeeded', async () => {
      const log = await json(survivor, 'GET', `/v1/forms/${form.json.id}/webhooks/${hook.json.id}/deliveries`, token);
      return log.json.data[0]?.status === 'succeeded' ? log.json.data : undefined;
    });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].attempts).toEqual([expect.objectContaining({ status_code: 200 })]);
  });
});
