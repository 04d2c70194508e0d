/**
 * PostgreSQL going away under load (DESIGN §13): every request that needs it answers 503
 * `service_unavailable` with Retry-After (a page for a browser's form post), never a 500; the
 * outage is logged once when it begins and once when it ends, with no stack traces; `/readyz`
 * says so; nothing acknowledged is lost; and when the database is back, so is the service.
 * The database is reached through a TCP hop (startTcpHop) that the test stops or hangs.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  type Account,
  createContactForm,
  databaseForProcess,
  postHtmlForm,
  type Res,
  startTcpHop,
  type TcpHop,
  startTestServer,
  submit,
  submitOverTrpc,
  TEST_DATABASE_URL,
  type TestServer,
  until,
  VALID,
} from '@lfk/server/testing';

const OUTAGE_STARTS = 'database unreachable: requests that need it answer 503 service_unavailable until it is back';
const OUTAGE_ENDS = /^database reachable again after [\d.]+ s; \d+ requests or runs failed on it meanwhile$/;

interface Sent {
  kind: string;
  res: Res;
  /** The submission's id when one was acknowledged (201). */
  acknowledged?: string;
}

describe.runIf(!!TEST_DATABASE_URL)('the database going away', () => {
  let database: { url: string; drop: () => Promise<void> } | null = null;
  let proxy: TcpHop;
  let t: TestServer;
  let owner: Account;
  let key: string;
  let formId: string;
  let keyFormId: string;

  beforeAll(async () => {
    database = await databaseForProcess();
    proxy = await startTcpHop(database!.url);
    // Short database timeouts, so a hung database is given up on in a second or two, not five.
    t = await startTestServer({ DATABASE_URL: proxy.url, LFK_DATABASE_CONNECT_TIMEOUT: '1', LFK_DATABASE_STATEMENT_TIMEOUT: '1', LFK_KEY_CACHE_TTL: '0' });
    ({ owner, key } = await t.signupWithKey());
    formId = (await createContactForm(t, owner)).id;
    keyFormId = (await createContactForm(t, { token: key, workspaceId: owner.workspaceId })).id;
  });
  afterAll(async () => {
    await proxy?.up();
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  /** One of each kind of request a client sends, each needing the database. */
  const kinds: Record<string, () => Promise<Sent>> = {
    'key read': async () => ({ kind: 'key read', res: await t.request('GET', `/v1/forms/${keyFormId}`, { token: key }) }),
    'key list': async () => ({ kind: 'key list', res: await t.request('GET', `/v1/forms/${keyFormId}/webhooks`, { token: key }) }),
    submission: async () => {
      const res = await submit(t, formId, VALID, { origin: 'https://shop.example' });
      return { kind: 'submission', res, ...(res.status === 201 ? { acknowledged: res.json.id } : {}) };
    },
    'keyed submission': async () => {
      const res = await submit(t, keyFormId, VALID, { token: key });
      return { kind: 'keyed submission', res, ...(res.status === 201 ? { acknowledged: res.json.id } : {}) };
    },
    'html form post': async () => ({
      kind: 'html form post',
      res: await postHtmlForm(t, formId, 'name=Ada&email=ada%40example.com', { origin: 'https://shop.example' }),
    }),
    'trpc submission': async () => {
      const res = await submitOverTrpc(t, formId, VALID, { origin: 'https://shop.example' });
      return { kind: 'trpc submission', res, ...(res.status === 200 ? { acknowledged: res.json.result.data.id } : {}) };
    },
    session: async () => ({ kind: 'session', res: await t.request('GET', '/v1/auth/session', { token: owner.token }) }),
    login: async () => ({ kind: 'login', res: await t.request('POST', '/v1/auth/login', { body: { email: owner.email, password: 'not the password' } }) }),
    signup: async () => ({
      kind: 'signup',
      res: await t.request('POST', '/v1/auth/signup', {
        body: { email: `outage-${Math.random().toString(36).slice(2)}@example.com`, password: 'a long enough password' },
      }),
    }),
    'trpc forms list': async () => ({
      kind: 'trpc forms list',
      res: await t.request('GET', `/trpc/forms.list?input=${encodeURIComponent(JSON.stringify({ workspace_id: owner.workspaceId }))}`, { token: owner.token }),
    }),
  };

  /** What each kind answers when the database is there. */
  const HEALTHY: Record<string, number> = {
    'key read': 200,
    'key list': 200,
    submission: 201,
    'keyed submission': 201,
    'html form post': 200,
    'trpc submission': 200,
    session: 200,
    login: 401,
    signup: 201,
    'trpc forms list': 200,
  };

  /** An answer given while the database was away: its 503, in the shape the client reads. */
  function expectUnavailable({ kind, res }: Sent): void {
    const requestId = String(res.headers['x-request-id']);
    const logged = t.logs.filter((line) => line.includes(requestId) && line.includes('"err"')).map((line) => line.slice(0, 1500));
    const where = `${kind}: ${res.status} ${res.body.slice(0, 300)} ${logged.join('\n')}`;
    expect(res.status, where).toBe(503);
    expect(res.headers['retry-after'], where).toBe('5');
    if (kind === 'html form post') {
      expect(res.headers['content-type'], where).toMatch(/^text\/html/);
      expect(res.body, where).toContain('Please try again shortly');
      expect(res.body, where).toContain('<meta name="lfk-error-code" content="service_unavailable">');
    } else if (kind.startsWith('trpc')) {
      expect(res.json.error.data.code, where).toBe('service_unavailable');
    } else {
      expect(res.json.error.code, where).toBe('service_unavailable');
    }
  }

  /** Clients sending every kind of request, over and over, until stopped: what each was answered. */
  function load(clients: number) {
    const sent: Sent[] = [];
    let stopped = false;
    const names = Object.keys(kinds);
    const runs = Array.from({ length: clients }, async (_, i) => {
      for (let n = i; !stopped; n++) sent.push(await kinds[names[n % names.length]!]!());
    });
    return {
      sent,
      async stop() {
        stopped = true;
        await Promise.all(runs);
        return sent;
      },
    };
  }

  const logLines = () => t.logs.map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown; reason?: string });
  /** The log lines since `before`, once they say the outage is over. */
  const linesOnceOver = async (before: number) => {
    await until('the outage to be logged as over', () =>
      logLines()
        .slice(before)
        .some((l) => OUTAGE_ENDS.test(l.msg)),
    );
    return logLines().slice(before);
  };

  it('stopped under load: 503s with Retry-After, one line when it goes and one when it is back, nothing acknowledged lost', async () => {
    const before = t.logs.length;
    const traffic = load(12);
    onTestFinished(async () => {
      await traffic.stop();
    });
    await until('answers while the database is up', () => traffic.sent.length >= 40);
    await proxy.down();
    const downAt = traffic.sent.length;
    await until('503s while it is down', () => traffic.sent.slice(downAt).filter((s) => s.res.status === 503).length >= 60);

    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json).toMatchObject({ status: 'unavailable', database: 'postgresql' });
    expect(Date.parse(ready.json.unavailable_since)).not.toBeNaN();
    // A key that cannot be one is refused without the database.
    const malformed = await t.request('GET', `/v1/forms/${keyFormId}`, { token: 'lfk_not-a-key' });
    expect(malformed.status).toBe(401);
    expect(malformed.json.error.code).toBe('invalid_api_key');

    await proxy.up();
    const upAt = traffic.sent.length;
    await until('every kind answered as usual again', () => {
      const after = traffic.sent.slice(upAt);
      return Object.keys(kinds).every((kind) => after.some((s) => s.kind === kind && s.res.status === HEALTHY[kind]));
    });
    const sent = await traffic.stop();

    // Every answer is what the kind answers when healthy, or its 503: never a 500, never another code.
    for (const one of sent) {
      if (one.res.status !== HEALTHY[one.kind]) expectUnavailable(one);
    }
    expect(sent.filter((s) => s.res.status === 503).length).toBeGreaterThanOrEqual(60);

    // Nothing acknowledged was lost.
    const acknowledged = sent.flatMap((s) => (s.acknowledged ? [s.acknowledged] : []));
    expect(acknowledged.length).toBeGreaterThan(0);
    const stored = await t.sql<{ id: string }>(`select id from submissions where id in (${acknowledged.map(() => '?').join(', ')})`, acknowledged);
    expect(stored.map((r) => r.id).sort()).toEqual([...acknowledged].sort());

    // The log: the outage once when it began and once when it ended; no stack, no "unexpected error".
    const lines = await linesOnceOver(before);
    expect(lines.filter((l) => l.msg === OUTAGE_STARTS)).toHaveLength(1);
    expect(lines.filter((l) => OUTAGE_ENDS.test(l.msg))).toHaveLength(1);
    expect(lines.find((l) => l.msg === OUTAGE_STARTS)!.level).toBe(50);
    expect(lines.filter((l) => l.msg === 'unexpected error')).toEqual([]);
    expect(t.logs.slice(before).filter((l) => l.includes('"stack"'))).toEqual([]);
    expect((await t.request('GET', '/readyz')).status).toBe(200);
  });

  it('hung (it takes connections and answers nothing): every request is given up on with a 503, then it serves again', async () => {
    const before = t.logs.length;
    // Warm connections first, so requests are in flight on them when the database stops answering.
    for (const kind of Object.keys(kinds)) expect((await kinds[kind]!()).res.status).toBe(HEALTHY[kind]);
    await proxy.hang();
    const answers = await Promise.all([...Object.values(kinds), ...Object.values(kinds)].map((send) => send()));
    for (const one of answers) expectUnavailable(one);
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(503);

    await proxy.up();
    await until('requests to succeed again', async () => (await kinds.session!()).res.status === 200);
    for (const kind of Object.keys(kinds)) expect((await kinds[kind]!()).res.status).toBe(HEALTHY[kind]);
    const lines = await linesOnceOver(before);
    expect(lines.filter((l) => l.msg === OUTAGE_STARTS)).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'unexpected error')).toEqual([]);
  });
});
