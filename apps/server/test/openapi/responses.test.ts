import { linkTokenSentTo, PASSWORD, postHtmlForm, rawExchange, submit, useTestServer, verificationTokenSentTo } from '@lfk/server/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { Conformance } from './conformance.ts';

// With metrics on the API port: the operator's route is served, yet the public document leaves it out.
const t = useTestServer({ LFK_METRICS: 'true' });
const ORIGIN = 'https://example.com';
let doc: Record<string, any>;
let check: Conformance;

beforeAll(async () => {
  const res = await t.request('GET', '/v1/openapi.json');
  doc = res.json;
  check = new Conformance(doc);
  check.expectConforms('GET', '/v1/openapi.json', res);
});

/** Sends a request to a documented path (`{form_id}` filled from `params`) and checks the answer against the document. */
async function call(
  method: string,
  path: string,
  options: { params?: Record<string, string>; token?: string; body?: unknown; raw?: string; headers?: Record<string, string>; query?: string } = {},
) {
  const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(options.params![name]!)) + (options.query ?? '');
  const res = await t.request(method, url, options);
  check.expectConforms(method, path, res);
  return res;
}

describe("the README's flows, answer by answer, as the OpenAPI document says", () => {
  it('health, readiness and the document itself', async () => {
    await call('GET', '/healthz');
    await call('GET', '/readyz');
  });

  it('an owner with a session, a key, a form, submissions, and the key revoked', async () => {
    const email = `owner-${Date.now()}@example.com`;
    const signedUp = await call('POST', '/v1/auth/signup', { body: { email, password: PASSWORD } });
    expect(signedUp.status).toBe(201);
    const session = signedUp.json.session_token as string;
    const ws = { workspace_id: signedUp.json.workspace.id as string };
    await call('GET', '/v1/auth/session', { token: session });
    expect((await call('POST', '/v1/auth/login', { body: { email, password: 'not the password' } })).status).toBe(401);
    expect((await call('POST', '/v1/auth/login', { body: { email, password: PASSWORD } })).status).toBe(200);
    await call('GET', '/v1/workspaces', { token: session });
    // Keys wait until the address is confirmed, with the link emailed at sign-up.
    const early = await call('POST', '/v1/workspaces/{workspace_id}/api-keys', { params: ws, token: session, body: { name: 'deploy bot' } });
    expect(early.json.error.code).toBe('email_not_confirmed');
    const confirmation = await linkTokenSentTo(t, email, 'account_verification');
    expect((await call('POST', '/v1/email-verifications/{token}', { params: { token: confirmation } })).status).toBe(200);

    const created = await call('POST', '/v1/workspaces/{workspace_id}/api-keys', { params: ws, token: session, body: { name: 'deploy bot' } });
    expect(created.status).toBe(201);
    const key = created.json.key as string;
    const keyParams = { ...ws, key_id: created.json.id as string };
    await call('GET', '/v1/workspaces/{workspace_id}/api-keys', { params: ws, token: session });
    await call('GET', '/v1/workspaces/{workspace_id}/api-keys/{key_id}', { params: keyParams, token: session });
    await call('GET', '/v1/workspaces/{workspace_id}/api-keys/{key_id}/usage', { params: keyParams, token: session, query: '?days=7' });
    // A key is refused where a session is needed; no credentials at all is a 401.
    expect((await call('GET', '/v1/workspaces/{workspace_id}/api-keys', { params: ws, token: key })).status).toBe(403);
    expect((await call('GET', '/v1/workspaces/{workspace_id}/api-keys', { params: ws })).status).toBe(401);

    const formBody = {
      name: 'Contact',
      schema: [
        { name: 'email', type: 'email', required: true, label: 'Your email' },
        { name: 'message', type: 'textarea' },
      ],
      allowed_origins: [ORIGIN],
    };
    const idempotency = { 'idempotency-key': `create-${Date.now()}` };
    const form = await call('POST', '/v1/forms', { token: key, body: formBody, headers: idempotency });
    expect(form.status).toBe(201);
    const replay = await call('POST', '/v1/forms', { token: key, body: formBody, headers: idempotency });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json.id).toBe(form.json.id);
    const reused = await call('POST', '/v1/forms', { token: key, body: { ...formBody, name: 'Other' }, headers: idempotency });
    expect(reused.json.error.code).toBe('idempotency_key_reused');
    const f = { form_id: form.json.id as string };
    await call('GET', '/v1/forms/{form_id}', { params: f, token: key });
    await call('PATCH', '/v1/forms/{form_id}', { params: f, token: key, body: { name: 'Contact us' } });
    expect((await call('GET', '/v1/forms/{form_id}', { params: { form_id: 'form_nope' }, token: key })).status).toBe(404);
    expect((await call('POST', '/v1/forms', { token: key, body: { name: 'No fields' } })).status).toBe(400);
    await call('GET', '/v1/workspaces/{workspace_id}/forms', { params: ws, token: session });

    // Submissions: JSON from the allowed origin, a plain HTML form post, and refusals of each kind.
    expect(
      (await call('OPTIONS', '/v1/forms/{form_id}/submissions', { params: f, headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } })).status,
    ).toBe(204);
    const path = '/v1/forms/{form_id}/submissions';
    const json = await submit(t, f.form_id, { email: 'ada@example.org', message: 'Hello' }, { origin: ORIGIN });
    check.expectConforms('POST', path, json);
    expect(json.status).toBe(201);
    const page = await postHtmlForm(t, f.form_id, 'email=grace%40example.org&message=Hi', { origin: ORIGIN });
    check.expectConforms('POST', path, page);
    expect(page.status).toBe(200);
    const invalid = await postHtmlForm(t, f.form_id, 'email=not-an-email', { origin: ORIGIN });
    check.expectConforms('POST', path, invalid);
    expect(invalid.status).toBe(422);
    const elsewhere = await postHtmlForm(t, f.form_id, 'email=eve%40example.org', { origin: 'https://evil.example' });
    check.expectConforms('POST', path, elsewhere);
    expect(elsewhere.status).toBe(403);
    const invalidJson = await submit(t, f.form_id, { email: 'nope' }, { origin: ORIGIN });
    check.expectConforms('POST', path, invalidJson);
    expect(invalidJson.status).toBe(422);
    await call('PATCH', '/v1/forms/{form_id}', { params: f, token: key, body: { redirect_url: 'https://example.com/thanks' } });
    const redirected = await postHtmlForm(t, f.form_id, 'email=lin%40example.org', { origin: ORIGIN });
    check.expectConforms('POST', path, redirected);
    expect(redirected.status).toBe(303);
    await call('PATCH', '/v1/forms/{form_id}', { params: f, token: key, body: { submission_mode: 'api_key' } });
    const serverSide = await submit(t, f.form_id, { email: 'bot@example.org' }, { token: key, headers: { 'idempotency-key': 'order-1234' } });
    check.expectConforms('POST', path, serverSide);
    const again = await submit(t, f.form_id, { email: 'bot@example.org' }, { token: key, headers: { 'idempotency-key': 'order-1234' } });
    check.expectConforms('POST', path, again);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const keyless = await submit(t, f.form_id, { email: 'bot@example.org' });
    check.expectConforms('POST', path, keyless);
    expect(keyless.status).toBe(401);

    const list = await call('GET', path, { params: f, token: session, query: '?limit=10' });
    expect(list.json.data.length).toBeGreaterThan(0);
    await call('GET', '/v1/forms/{form_id}/submissions/{submission_id}', { params: { ...f, submission_id: list.json.data[0].id }, token: session });
    expect((await call('GET', path, { params: f, token: key })).status).toBe(403);

    // Roll, then revoke: the revoked key's very next use is a 401.
    const rolled = await call('POST', '/v1/workspaces/{workspace_id}/api-keys/{key_id}/roll', {
      params: keyParams,
      token: session,
      body: { grace_seconds: 3600 },
    });
    expect(rolled.status).toBe(201);
    expect((await call('DELETE', '/v1/workspaces/{workspace_id}/api-keys/{key_id}', { params: keyParams, token: session })).status).toBe(204);
    const refused = await call('GET', '/v1/forms/{form_id}', { params: f, token: key });
    expect(refused.json.error.code).toBe('invalid_api_key');
    expect((await call('DELETE', '/v1/workspaces/{workspace_id}/api-keys/{key_id}', { params: { ...ws, key_id: 'key_nope' }, token: session })).status).toBe(
      404,
    );

    // Every kind of event these steps recorded reads as its action's documented `data`.
    const events = await call('GET', '/v1/workspaces/{workspace_id}/audit-events', { params: ws, token: session });
    expect(new Set(events.json.data.map((e: { action: string }) => e.action))).toEqual(
      new Set(['workspace.created', 'api_key.created', 'api_key.rolled', 'api_key.revoked', 'form.created', 'form.updated']),
    );
    await call('GET', '/v1/workspaces/{workspace_id}/members', { params: ws, token: session });
    await call('GET', '/v1/workspaces/{workspace_id}/projects', { params: ws, token: session });
    await call('POST', '/v1/auth/logout', { token: session });
  });

  it('an unclaimed form, its verification link, and its claim', async () => {
    const notify = `notify-${Date.now()}@example.com`;
    const form = await call('POST', '/v1/forms', {
      body: { name: 'Anonymous', schema: [{ name: 'email', type: 'email', required: true }], notify_email: notify },
    });
    expect(form.status).toBe(201);
    expect(form.json.claim_token).toMatch(/^lfc_/);
    const token = await verificationTokenSentTo(t, notify);
    await call('GET', '/v1/email-verifications/{token}', { params: { token } });
    expect((await call('POST', '/v1/email-verifications/{token}', { params: { token } })).status).toBe(200);
    expect((await call('POST', '/v1/email-verifications/{token}', { params: { token } })).status).toBe(404);
    const owner = await call('POST', '/v1/auth/signup', { body: { email: `claimer-${Date.now()}@example.com`, password: PASSWORD } });
    const claimed = await call('POST', '/v1/forms/{form_id}/claim', {
      params: { form_id: form.json.id },
      token: owner.json.session_token,
      body: { claim_token: form.json.claim_token, workspace_id: owner.json.workspace.id },
    });
    expect(claimed.json.state).toBe('claimed');
  });

  it('the eleventh active key is a 429', async () => {
    const owner = await t.signup();
    const ws = { workspace_id: owner.workspaceId };
    for (let i = 0; i < 10; i++) await t.createKey(owner.token, owner.workspaceId);
    const refused = await call('POST', '/v1/workspaces/{workspace_id}/api-keys', { params: ws, token: owner.token, body: {} });
    expect(refused.json.error.code).toBe('api_key_limit_reached');
  });

  it('making a member an owner long after signing in is a 403 reauthentication_required; making them a member is not', async () => {
    const { owner, member } = await t.signupTeam();
    await t.sql("update sessions set authenticated_at = now() - interval '1 hour' where user_id = ?", [owner.userId]);
    const params = { workspace_id: owner.workspaceId, user_id: member.userId };
    const path = '/v1/workspaces/{workspace_id}/members/{user_id}';
    const refused = await call('PATCH', path, { params, token: owner.token, body: { role: 'owner' } });
    expect([refused.status, refused.json.error.code]).toEqual([403, 'reauthentication_required']);
    expect((await call('PATCH', path, { params, token: owner.token, body: { role: 'member' } })).status).toBe(200);
  });
});

describe('the document covers the server', () => {
  it("every route the server registers is documented (HEAD with its GET) but the operator's /metrics, and nothing else", async () => {
    // printRoutes draws a tree: each line's depth is where its branch starts, its path the parent's plus its own.
    const parents: string[] = [];
    const routes = t.server.app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .flatMap((line) => {
        const match = /^(.*?)[├└]── (\S+) \(([A-Z, ]+)\)$/.exec(line);
        if (!match) return [];
        const depth = match[1]!.length / 4;
        const path = (parents[depth - 1] ?? '') + match[2]!;
        parents[depth] = path;
        return match[3]!.split(', ').map((method) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
      })
      .filter((route) => !route.startsWith('HEAD ') && !route.includes(' /trpc/') && !route.includes(' /docs'));
    // Served here (LFK_METRICS=true), and still not in the public document.
    expect(routes).toContain('GET /metrics');
    expect(doc.paths['/metrics']).toBeUndefined();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`));
    expect(routes.filter((route) => route !== 'GET /metrics').sort()).toEqual(documented.sort());
  });
});

describe('requests Node cannot read, sent to the routes that answer pages', () => {
  it('are answered as the document says: JSON, since no route has seen them', async () => {
    const port = Number(new URL(await t.server.listen()).port);
    const malformed = [
      ['GET', '/v1/email-verifications/{token}', '/v1/email-verifications/lfv_x', 'Content-Length: abc'],
      ['POST', '/v1/email-verifications/{token}', '/v1/email-verifications/lfv_x', 'Content-Length: abc'],
      ['GET', '/v1/auth/password-resets/{token}', '/v1/auth/password-resets/lfr_x', 'Transfer-Encoding: chunked\r\nContent-Length: 3'],
    ] as const;
    for (const [method, path, url, header] of malformed) {
      const raw = await rawExchange(port, (socket) => void socket.write(`${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}\r\n\r\n`));
      expect(raw.status).toBe(400);
      expect(raw.json.error.code).toBe('invalid_request');
      check.expectConforms(method, path, { status: raw.status, headers: raw.headers, body: raw.body, json: raw.json });
    }
  });
});
