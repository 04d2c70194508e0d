/**
 * Deadlines in order (issue 50, item 11): every dependency a request waits on gives up before the
 * connection carrying the request is cut for idleness (`LFK_IDLE_TIMEOUT`), so a client whose
 * dependency accepts and never answers reads the 503 that names it, with `Retry-After`, not a
 * reset. The server's idle timeout is shortened to 6 s here; object storage and clamd then get 3 s
 * (`dependencyDeadlines`), each behind a TCP hop that accepts and carries nothing. Waits out those
 * deadlines: in the slow project. Webhooks are sent by a background worker: a hung receiver holds
 * no request, and its attempt ends at the worker's own deadline.
 */
import {
  createForm,
  type S3Server,
  s3Env,
  startReceiver,
  startS3Server,
  startTcpHop,
  submitMultipart,
  type TcpHop,
  until,
  useTestServer,
} from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/index.ts';
import { deliveriesOf, formWithWebhook, submitTo } from '../webhooks/fixtures.ts';

const PDF = Buffer.from('%PDF-1.7\n%lfk\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n');
const SCHEMA = [{ name: 'doc', type: 'file', required: true }];
// Short enough to wait out, with the database's deadlines inside it (1 s to connect, 3 s a statement, 1 s of grace).
const IDLE = { LFK_IDLE_TIMEOUT: '6', LFK_DATABASE_CONNECT_TIMEOUT: '1', LFK_DATABASE_STATEMENT_TIMEOUT: '3' };

/** A request over a real connection, which only a real socket can have cut: what the client reads, or how it failed. */
async function overTheWire(base: string, path: string, init: RequestInit): Promise<{ status: number; retryAfter: string | null; json: any }> {
  const res = await fetch(`${base}${path}`, init);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json: await res.json() };
}

const multipart = () => {
  const form = new FormData();
  form.append('doc', new Blob([PDF], { type: 'application/pdf' }), 'a.pdf');
  return form;
};

describe('the rule, at start', () => {
  it('refuses a database or captcha deadline not shorter than the idle timeout, and derives the others from it', () => {
    const refused = [
      { LFK_DATABASE_STATEMENT_TIMEOUT: '60' },
      { LFK_DATABASE_CONNECT_TIMEOUT: '30', LFK_DATABASE_STATEMENT_TIMEOUT: '30' },
      { LFK_CAPTCHA_TIMEOUT: '60' },
      { LFK_IDLE_TIMEOUT: '5', LFK_CAPTCHA_TIMEOUT: '5', LFK_DATABASE_CONNECT_TIMEOUT: '1', LFK_DATABASE_STATEMENT_TIMEOUT: '1' },
      { LFK_IDLE_TIMEOUT: '10', LFK_DATABASE_CONNECT_TIMEOUT: '3', LFK_DATABASE_STATEMENT_TIMEOUT: '6' },
    ];
    for (const env of refused) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/must be shorter than LFK_IDLE_TIMEOUT/);
    }
    expect(loadConfig({ LFK_IDLE_TIMEOUT: '120', LFK_DATABASE_STATEMENT_TIMEOUT: '60', LFK_CAPTCHA_TIMEOUT: '60' }).timeouts.idleMs).toBe(120_000);
    const defaults = loadConfig({});
    expect(defaults.timeouts.idleMs).toBe(60_000);
    expect(defaults.dependencyDeadlines).toEqual({ connectMs: 5_000, totalMs: 30_000 });
    expect(loadConfig(IDLE).dependencyDeadlines).toEqual({ connectMs: 3_000, totalMs: 3_000 });
  });
});

describe('clamd that accepts and never answers', () => {
  let hop: TcpHop;
  beforeAll(async () => {
    hop = await startTcpHop('http://127.0.0.1:9');
    await hop.hang();
  });
  afterAll(() => hop?.close());
  const t = useTestServer(() => ({ ...IDLE, LFK_CLAMD_URL: `tcp://127.0.0.1:${new URL(hop.url).port}` }));

  it('answers 503 scanner_unavailable with Retry-After before the connection is cut, and stores nothing', async () => {
    const { key } = await t.signupWithKey();
    const form = await createForm(t, key, { name: 'Scanned', schema: SCHEMA });
    const base = await t.server.listen();
    const res = await overTheWire(base, `/v1/forms/${form.id}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: multipart() });
    expect(res.status, JSON.stringify(res.json)).toBe(503);
    expect(res.json.error.code).toBe('scanner_unavailable');
    expect(res.retryAfter).toBe('5');
    expect(await t.count('submissions where form_id = ?', [form.id])).toBe(0);
  });
});

describe('object storage that accepts and never answers', () => {
  let s3: S3Server;
  let hop: TcpHop;
  beforeAll(async () => {
    s3 = await startS3Server();
    hop = await startTcpHop(s3.endpoint);
  });
  afterAll(async () => {
    await hop?.close();
    await s3?.close();
  });
  const t = useTestServer(() => ({ ...IDLE, ...s3Env(s3, hop.url.replace(/\/$/, '')) }));

  it('answers uploads, downloads and signed links 503 storage_unavailable with Retry-After before the connection is cut', async () => {
    const { owner, key } = await t.signupWithKey();
    const form = await createForm(t, key, { name: 'On S3', schema: SCHEMA });
    const stored = await submitMultipart(t, form.id, [{ name: 'doc', file: PDF, filename: 'a.pdf' }], { token: key });
    expect(stored.status, stored.body).toBe(201);
    const [file] = (await t.request('GET', `/v1/forms/${form.id}/submissions/${stored.json.id}`, { token: owner.token })).json.files;
    const link = new URL(t.server.services.files.links.url(file.id, new Date(Date.now() + 600_000)));
    const base = await t.server.listen();

    await hop.hang();
    const answers = [
      await overTheWire(base, `/v1/forms/${form.id}/submissions/${stored.json.id}/files/${file.id}`, { headers: { authorization: `Bearer ${owner.token}` } }),
      await overTheWire(base, link.pathname, {}),
      await overTheWire(base, `/v1/forms/${form.id}/submissions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: multipart() }),
    ];
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.json)).toBe(503);
      expect(res.json.error.code).toBe('storage_unavailable');
      expect(res.retryAfter).toBe('5');
    }
    expect(await t.count('submissions where form_id = ?', [form.id])).toBe(1);
  });
});

describe('a webhook receiver that accepts and never answers', () => {
  // The worker's own deadline, short here: a hung receiver's attempt ends with it.
  const t = useTestServer({ ...IDLE, LFK_WEBHOOK_ALLOW_PRIVATE: 'true' }, { webhooks: { pollMs: 50, timeoutMs: 1_000 } });

  it('holds no request: the submission is answered at once, and the attempt ends at its deadline', async () => {
    const owner = await t.signup();
    const receiver = await startReceiver();
    try {
      receiver.answers.push('hang');
      const hook = await formWithWebhook(t, owner, receiver.url);
      await submitTo(t, hook.formId);
      const [delivery] = await until('the hung attempt to end at its deadline', async () => {
        const log = await deliveriesOf(t, owner, hook);
        return log[0]?.attempts.length === 1 ? log : undefined;
      });
      expect(delivery!.attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining('timeout') });
    } finally {
      await receiver.close();
    }
  });
});

describe('an SMTP server that accepts and never answers', () => {
  let hop: TcpHop;
  beforeAll(async () => {
    hop = await startTcpHop('http://127.0.0.1:9');
    await hop.hang();
  });
  afterAll(() => hop?.close());
  // The sender's own deadlines (10 s to connect and be greeted) end the attempt; stopping the server waits for it.
  const t = useTestServer(() => ({ ...IDLE, SMTP_URL: `smtp://127.0.0.1:${new URL(hop.url).port}` }), { outbox: { pollMs: 50 } });

  it('holds no request: mail is queued and answered at once, and the sender, not the request, waits on the server', async () => {
    const owner = await t.signup();
    const res = await t.request('POST', '/v1/auth/password-resets', { body: { email: owner.email } });
    expect(res.status, res.body).toBe(202);
    const [mail] = await t.sql<{ status: string }>(`select status from outbox_emails where "to" = ? and kind = 'password_reset'`, [owner.email]);
    expect(mail?.status).not.toBe('sent');
  });
});
