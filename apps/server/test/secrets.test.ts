import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, rawExchange, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  // The most talkative level: nothing a log call is handed may carry a secret.
  t = await startTestServer({ LOG_LEVEL: 'trace' });
});
afterAll(async () => {
  await t.close();
});

const formBody = { name: 'Leads', schema: [{ name: 'email', type: 'email', required: true }] };

it('no plaintext key, session token or claim token reaches the database or the logs', async () => {
  const owner = await t.signup();
  const login = await t.request('POST', '/v1/auth/login', { body: { email: owner.email, password: PASSWORD } });
  expect(login.status).toBe(200);
  const keys = [];
  for (let i = 0; i < 3; i++) keys.push(await t.createKey(owner.token, owner.workspaceId, `key ${i}`));
  for (const { key } of keys) {
    const form = await t.request('POST', '/v1/forms', { token: key, body: formBody });
    expect(form.status).toBe(201);
    await t.request('PATCH', `/v1/forms/${form.json.id}`, { token: key, body: { name: 'Leads 2' } });
    // A key where a session is needed, and in places it does not belong.
    await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: key });
    await t.request('POST', '/v1/forms', { token: key, raw: `{"name": "${key}", ` });
    await t.request('GET', `/v1/forms/${key}`, { token: owner.token });
  }
  await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${keys[0]!.id}`, { token: owner.token });
  await t.request('GET', '/v1/auth/session', { token: keys[0]!.key });
  await t.request('GET', '/v1/auth/session', { headers: { cookie: `lfk_session=${login.json.session_token}` } });
  await t.request('POST', '/v1/auth/logout', { token: login.json.session_token });
  await t.request('GET', '/v1/auth/session', { token: login.json.session_token });
  // A claim token: handed out once, replayed as null, used, pasted where it does not belong.
  const anonymousBody = { ...formBody, notify_email: 'leads@example.com', allowed_origins: ['https://leads.example'] };
  const anonymous = await t.request('POST', '/v1/forms', { body: anonymousBody, headers: { 'idempotency-key': 'anon-1' } });
  expect(anonymous.json.claim_token).toMatch(/^lfc_/);
  const replay = await t.request('POST', '/v1/forms', { body: anonymousBody, headers: { 'idempotency-key': 'anon-1' } });
  expect(replay.json).toMatchObject({ id: anonymous.json.id, claim_token: null });
  const claim = { claim_token: anonymous.json.claim_token, workspace_id: owner.workspaceId };
  expect((await t.request('POST', `/v1/forms/${anonymous.json.id}/claim`, { token: owner.token, body: claim })).status).toBe(200);
  expect((await t.request('POST', `/v1/forms/${anonymous.json.id}/claim`, { token: owner.token, body: claim })).status).toBe(409);
  await t.request('GET', `/v1/forms/${anonymous.json.claim_token}`, { token: owner.token });
  await t.request('POST', `/v1/forms/${anonymous.json.id}/submissions`, {
    body: { email: 'lead@example.com' },
    headers: { origin: 'https://leads.example', 'idempotency-key': 'sub-1' },
  });
  await t.server.services.lastUsed.flush();

  // Every secret the server handed out: 3 keys, 2 session tokens and a claim token at least.
  const secrets = [...t.secretsHandedOut];
  expect(secrets.filter((s) => s.startsWith('lfk_')).length).toBeGreaterThanOrEqual(3);
  expect(secrets.filter((s) => s.startsWith('lfs_')).length).toBeGreaterThanOrEqual(2);
  expect(secrets.filter((s) => s.startsWith('lfc_')).length).toBeGreaterThanOrEqual(1);

  const tables = await t.sql<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
  );
  expect(tables.map((r) => r.table_name)).toEqual(
    expect.arrayContaining(['api_keys', 'sessions', 'audit_events', 'forms', 'idempotency_records', 'submissions']),
  );
  let dump = '';
  for (const { table_name } of tables) {
    dump += JSON.stringify(await t.sql(`select * from "${table_name}"`));
  }
  expect(dump).toContain(keys[1]!.id); // the dump is real: it holds what was made
  for (const secret of secrets) {
    expect(dump.includes(secret), `database holds ${secret.slice(0, 8)}…`).toBe(false);
    // …nor the random part without its prefix.
    expect(dump.includes(secret.slice(4)), `database holds the body of ${secret.slice(0, 8)}…`).toBe(false);
  }

  const logText = t.logs.join('\n');
  expect(t.logs.length).toBeGreaterThan(20);
  for (const secret of secrets) {
    const hit = t.logs.find((l) => l.includes(secret.slice(4)));
    expect(hit, `logs hold ${secret.slice(0, 8)}…`).toBeUndefined();
  }
  expect(logText).not.toContain(PASSWORD);
});

describe('requests refused before they become requests (malformed, too large, CONNECT)', () => {
  it('leave no secret in the log, even at trace level', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    const port = Number(new URL(await t.server.listen()).port);
    const raw = [
      `GET /v1/forms HTTP/1.1\r\nHost: lfk.test\r\nAuthorization: Bearer ${key}\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
      `GET /v1/forms?api_key=${key} HTTP/1.1\r\nHost: lfk.test\r\nX-Bad: \x01\r\n\r\n`,
      `GET /v1/forms HTTP/1.1\r\nHost: lfk.test\r\nCookie: lfk_session=${owner.token}\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n`,
      `CONNECT ${key}.example:443 HTTP/1.1\r\nHost: ${key}.example:443\r\nAuthorization: Bearer ${owner.token}\r\n\r\n`,
    ];
    const answers = [];
    for (const request of raw) answers.push(await rawExchange(port, (socket) => void socket.write(request)).catch((error: Error) => error));
    for (const secret of [key, owner.token]) {
      expect(t.logs.find((line) => line.includes(secret.slice(4))), `logs hold ${secret.slice(0, 8)}…`).toBeUndefined();
    }
    for (const res of answers) {
      if (res instanceof Error) throw res;
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.json.error.request_id).toBe(res.headers['x-request-id']);
    }
  });
});
