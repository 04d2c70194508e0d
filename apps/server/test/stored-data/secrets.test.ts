import { describe, expect, it } from 'vitest';
import { authenticatorCode, linkTokenSentTo, PASSWORD, rawExchange, until, useTestServer, verificationTokenSentTo } from '@lfk/server/testing';

// The most talkative level: nothing a log call is handed may carry a secret.
const t = useTestServer({ LOG_LEVEL: 'trace' });

const formBody = { name: 'Leads', schema: [{ name: 'email', type: 'email', required: true }] };

it('no plaintext key, session token or claim token reaches the database or the logs', async () => {
  // Signed up as a person does, so sign-up's own request and answer are in the logs too.
  const owner = await t.signupOverHttp();
  await t.confirmAddress(owner.email);
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
  await t.server.services.keyUses.flush();

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

it('no reset or invitation token reaches the database, the audit log or a log line but its own email', async () => {
  const owner = await t.signupOverHttp();
  await t.confirmAddress(owner.email);
  const invitee = `invitee-${Date.now()}@example.com`;
  expect((await t.request('POST', '/v1/auth/password-resets', { body: { email: owner.email } })).status).toBe(202);
  expect(
    (await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: invitee, role: 'owner' } })).status,
  ).toBe(202);
  const reset = await linkTokenSentTo(t, owner.email, 'password_reset');
  const invitation = await linkTokenSentTo(t, invitee, 'invitation');
  // Used where they belong (the invitee signs up and accepts; the owner resets), and where they do not.
  await t.request('GET', `/v1/invitations/${invitation}`);
  await t.request('GET', `/v1/auth/password-resets/${reset}`);
  await t.request('POST', `/v1/invitations/${reset}/accept`, { token: owner.token });
  await t.request('POST', `/v1/auth/password-resets/${invitation}`, { body: { password: 'a new long password' } });
  const signup = await t.request('POST', '/v1/auth/signup', { body: { email: invitee, password: PASSWORD } });
  expect((await t.request('POST', `/v1/invitations/${invitation}/accept`, { token: signup.json.session_token })).status).toBe(200);
  expect((await t.request('POST', `/v1/auth/password-resets/${reset}`, { body: { password: 'a new long password' } })).status).toBe(204);
  // The sender is done with every email (a sent email's body, which held the link, is cleared).
  await until('every email sent', async () => (await t.count("outbox_emails where status = 'pending'")) === 0);

  const tables = await t.sql<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
  );
  let dump = '';
  for (const { table_name } of tables) dump += JSON.stringify(await t.sql(`select * from "${table_name}"`));
  expect(dump).toContain('invitation.created'); // the audit log is in the dump
  for (const secret of [reset, invitation]) {
    expect(dump.includes(secret.slice(4)), `database holds ${secret.slice(0, 4)}…`).toBe(false);
    // In the logs, only the email that carries it (printed there by design, without SMTP).
    const lines = t.logs.filter((l) => l.includes(secret.slice(4)));
    expect(lines.length, `${secret.slice(0, 4)}… in the logs`).toBe(1);
    expect(JSON.parse(lines[0]!).email?.kind).toMatch(/^(password_reset|invitation)$/);
  }
});

it("no second factor's secret, recovery code or sign-in challenge reaches the database or a log line", async () => {
  const owner = await t.signupOverHttp();
  const { secret, recoveryCodes } = await t.enableAuthenticator(owner.token);
  const challenges: string[] = [];
  const signIn = async (factor: Record<string, string>) => {
    const answer = await t.request('POST', '/v1/auth/login', { body: { email: owner.email, password: PASSWORD } });
    expect(answer.status).toBe(401);
    challenges.push(answer.json.error.challenge);
    return t.request('POST', '/v1/auth/second-factor', { body: { challenge: answer.json.error.challenge, ...factor } });
  };
  expect((await signIn({ code: await authenticatorCode(secret, 1, t.server.config.now()) })).status).toBe(200);
  expect((await signIn({ recovery_code: recoveryCodes[0]! })).status).toBe(200);
  // Refused ones too: a wrong code, a used recovery code, a challenge where a session goes.
  expect((await signIn({ recovery_code: recoveryCodes[0]! })).status).toBe(401);
  await t.request('GET', '/v1/auth/session', { token: challenges[0] });
  await t.request('POST', '/v1/auth/reauthenticate', { token: owner.token, body: { code: '000000' } });
  expect(challenges).toHaveLength(3);

  const tables = await t.sql<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'",
  );
  let dump = '';
  for (const { table_name } of tables) dump += JSON.stringify(await t.sql(`select * from "${table_name}"`));
  expect(dump).toContain('two_factor.recovery_code_used'); // the audit log is in the dump
  const logText = t.logs.join('\n');
  const secrets = [secret, ...recoveryCodes, ...recoveryCodes.map((c) => c.replaceAll('-', '')), ...challenges.map((c) => c.slice(4))];
  for (const held of secrets) {
    expect(dump.includes(held), `database holds ${held.slice(0, 4)}…`).toBe(false);
    expect(logText.includes(held), `logs hold ${held.slice(0, 4)}…`).toBe(false);
  }
});

describe('secrets in URLs, whatever comes before them and however they are encoded', () => {
  /** Every way a caller has been seen to put a secret into a URL; `s` is the secret. */
  const shapes: [string, (s: string) => string][] = [
    ['after "Bearer%20" in a query', (s) => `/v1/auth/session?api_key=Bearer%20${s}`],
    ['after an encoded quote in a query', (s) => `/v1/auth/session?q=%22${s}`],
    ['inside a tRPC ?input=', (s) => `/trpc/auth.session?input=${encodeURIComponent(JSON.stringify({ token: s }))}`],
    ['after an encoded space in an unknown path', (s) => `/v1/nowhere/%20${s}`],
    ['after an underscore in a path id', (s) => `/v1/forms/x_${s}`],
    ['with its underscore percent-encoded', (s) => `/v1/nowhere/${s.slice(0, 3)}%5F${s.slice(4)}`],
    ['with its underscore double-encoded', (s) => `/v1/nowhere/${s.slice(0, 3)}%255F${s.slice(4)}`],
    ['fully percent-encoded', (s) => `/v1/nowhere/${[...s].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`],
    ['double-encoded after a space', (s) => `/v1/forms/%2520${s}`],
    // Every secret starts with "l" (U+006C), written here as a JSON escape.
    ['with a JSON escape in a tRPC ?input=', (s) => `/trpc/auth.session?input=${encodeURIComponent(`{"token":"\\u006c${s.slice(1)}"}`)}`],
    ['as a query parameter name', (s) => `/v1/workspaces?${s}=1`],
  ];

  it('no key, session, claim, verification, reset or invitation token sent in a URL reaches a log line or an answer', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId, 'url');
    const notify = `url-${Date.now()}@example.com`;
    const anonymous = await t.request('POST', '/v1/forms', { body: { ...formBody, notify_email: notify } });
    expect(anonymous.status).toBe(201);
    const verification = await verificationTokenSentTo(t, notify);
    expect((await t.request('POST', '/v1/auth/password-resets', { body: { email: owner.email } })).status).toBe(202);
    const reset = await linkTokenSentTo(t, owner.email, 'password_reset');
    expect((await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: notify } })).status).toBe(202);
    const invitation = await linkTokenSentTo(t, notify, 'invitation');
    const secrets = { key, session: owner.token, claim: anonymous.json.claim_token as string, verification, reset, invitation };
    expect(secrets.claim).toMatch(/^lfc_/);
    // The email that carries the link is printed to the log by design (no SMTP here); scan what follows it.
    const from = t.logs.length;

    const answers: string[] = [];
    for (const [kind, secret] of Object.entries(secrets)) {
      for (const [shape, url] of shapes) {
        for (const method of ['GET', 'POST']) {
          const res = await t.request(method, url(secret), { token: owner.token, ...(method === 'POST' ? { body: {} } : {}) });
          expect(res.status, `${method} ${kind} ${shape}`).toBeLessThan(500);
          answers.push(`${method} ${kind} ${shape}: ${JSON.stringify(res.headers)} ${res.body}`);
        }
      }
    }

    const logs = t.logs.slice(from);
    // The logs are real: every request was logged with its (redacted) URL.
    expect(logs.filter((l) => JSON.parse(l).req?.url !== undefined).length).toBeGreaterThanOrEqual(Object.keys(secrets).length * shapes.length * 2);
    for (const [kind, secret] of Object.entries(secrets)) {
      const body = secret.slice(4);
      const leakedLog = logs.find((l) => l.includes(body));
      expect(leakedLog, `a log line holds the ${kind} token`).toBeUndefined();
      const leakedAnswer = answers.find((a) => a.includes(body));
      expect(leakedAnswer, `an answer holds the ${kind} token`).toBeUndefined();
    }
  });
});

describe('secrets where a caller echoes them back: request ids, field names', () => {
  it('a secret sent as the request id, or as a field name of a body, is not echoed in an answer or a log line', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId, 'echo');
    const open = await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, allowed_origins: ['https://echo.example'] } });
    expect(open.status).toBe(201);
    const from = t.logs.length;
    const answers: string[] = [];
    for (const secret of [key, owner.token]) {
      const asRequestId = await t.request('GET', '/v1/auth/session', { token: owner.token, headers: { 'x-request-id': secret } });
      expect(asRequestId.status).toBe(200);
      expect(asRequestId.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
      const asLoginField = await t.request('POST', '/v1/auth/login', { body: { email: owner.email, password: PASSWORD, [secret]: 1 } });
      expect(asLoginField.status).toBe(400);
      const asSubmissionField = await t.request('POST', `/v1/forms/${open.json.id}/submissions`, {
        body: { email: 'a@example.com', [secret]: 'x' },
        headers: { origin: 'https://echo.example' },
      });
      expect(asSubmissionField.status).toBe(422);
      expect(asSubmissionField.json.error.details).toContainEqual({ path: `${secret.slice(0, 3)}_[redacted]`, message: 'Unknown field.' });
      for (const res of [asRequestId, asLoginField, asSubmissionField]) answers.push(`${JSON.stringify(res.headers)} ${res.body}`);
    }
    const logs = t.logs.slice(from);
    expect(logs.length).toBeGreaterThan(6);
    for (const secret of [key, owner.token]) {
      expect(
        logs.find((l) => l.includes(secret.slice(4))),
        `a log line holds ${secret.slice(0, 4)}…`,
      ).toBeUndefined();
      expect(
        answers.find((a) => a.includes(secret.slice(4))),
        `an answer holds ${secret.slice(0, 4)}…`,
      ).toBeUndefined();
    }
  });
});

describe('requests refused before they become requests (malformed, too large, CONNECT)', () => {
  it('leave no secret in the log, even at trace level', async () => {
    const { owner, key } = await t.signupWithKey();
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
      expect(
        t.logs.find((line) => line.includes(secret.slice(4))),
        `logs hold ${secret.slice(0, 8)}…`,
      ).toBeUndefined();
    }
    for (const res of answers) {
      if (res instanceof Error) throw res;
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.json.error.request_id).toBe(res.headers['x-request-id']);
    }
  });
});
