/**
 * Crash safety of the real server process (`node src/main.ts`, as `npm start` runs it): a process
 * killed with SIGKILL loses nothing it acknowledged. An email still in the outbox is sent after
 * the restart; a submission answered 201 is still there.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseForProcess, ENGINE, freePort, PASSWORD, spawnServerProcess, TEST_DATABASE_URL, until } from '@lfk/server/testing';

/** An SMTP peer that keeps every message it accepts. */
async function smtpPeer(): Promise<{ port: number; messages: string[]; close: () => Promise<void> }> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk) => (data += chunk));
      stream.on('end', () => {
        messages.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.runIf(ENGINE === 'pglite' || TEST_DATABASE_URL)('a server killed with SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lfk-crash-'));
  const children: ChildProcess[] = [];
  // On PostgreSQL a database of the test's own: an outbox another run left mail in would be sent first.
  let database: { url: string; drop: () => Promise<void> } | null = null;
  beforeAll(async () => {
    database = await databaseForProcess();
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  async function start(port: number, smtpPort: number): Promise<ChildProcess> {
    const { child } = await spawnServerProcess({
      PORT: String(port),
      LFK_DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    children.push(child);
    return child;
  }

  async function kill(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  it('sends after a restart the email it had not sent, and keeps every acknowledged submission', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const address = `crash-${Date.now()}@example.com`;

    // SMTP is down: the verification email can only wait in the outbox.
    const first = await start(port, await freePort());
    const created = await post('/v1/forms', {
      name: 'Crash test',
      schema: [{ name: 'message', type: 'textarea', required: true }],
      notify_email: address,
      allowed_origins: ['https://site.example'],
    });
    expect(created.status).toBe(201);
    const form = (await created.json()) as { id: string; claim_token: string };
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await post(`/v1/forms/${form.id}/submissions`, { message: `number ${i} ✓` }, { origin: 'https://site.example' });
      expect(res.status).toBe(201);
      acknowledged.push(((await res.json()) as { id: string }).id);
    }
    await kill(first);

    // Back up, with SMTP up: the pending email goes out, once.
    const smtp = await smtpPeer();
    try {
      const second = await start(port, smtp.port);
      const message = await until('the verification email', () => smtp.messages.find((m) => m.includes(address)));
      // As a mail program reads it: quoted-printable's soft line breaks (which may fall inside the link) undone.
      expect(message.replace(/=\r?\n/g, '')).toContain('/v1/email-verifications/lfv_');

      // Every acknowledged submission is there: claim the form and read them back.
      const signup = await post('/v1/auth/signup', { email: address.replace('@', '-owner@'), password: PASSWORD });
      const { session_token: token, workspace } = (await signup.json()) as { session_token: string; workspace: { id: string } };
      const auth = { authorization: `Bearer ${token}` };
      const claim = await post(`/v1/forms/${form.id}/claim`, { claim_token: form.claim_token, workspace_id: workspace.id }, auth);
      expect(claim.status).toBe(200);
      const list = await fetch(`${base}/v1/forms/${form.id}/submissions?limit=100`, { headers: auth });
      const stored = ((await list.json()) as { data: { id: string; data: { message: string } }[] }).data;
      expect(stored.map((s) => s.id).sort()).toEqual([...acknowledged].sort());
      expect(stored.map((s) => s.data.message)).toContain('number 19 ✓');

      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.messages.filter((m) => m.includes(address))).toHaveLength(1);
      await kill(second);
    } finally {
      await smtp.close();
    }
  });
});
