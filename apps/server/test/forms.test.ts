import { createHash, randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '@lfk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, PASSWORD, type Res, startTestServer, type TestServer, verificationTokenSentTo } from '@lfk/testing';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;
const address = (label: string) => `${unique(label)}@example.com`;

const SCHEMA = [{ name: 'email', type: 'email', required: true }];
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A claim token of the right shape that the server never handed out. */
const strayClaimToken = () =>
  `lfc_${Array.from(randomBytes(43), (b) => BASE62[b % 62]).join('')}`;

function anonymousBody(extra: Record<string, unknown> = {}) {
  return { name: unique('Anon form'), schema: SCHEMA, notify_email: address('anon'), ...extra };
}

function expectRetryAfter(res: Res) {
  const value = String(res.headers['retry-after']);
  expect(value, 'Retry-After').toMatch(/^\d+$/);
  expect(Number(value)).toBeGreaterThanOrEqual(1);
}

async function createAnonymous(server: TestServer, extra: Record<string, unknown> = {}, headers?: Record<string, string>) {
  const res = await server.request('POST', '/v1/forms', { body: anonymousBody(extra), ...(headers ? { headers } : {}) });
  if (res.status !== 201) throw new Error(`anonymous create failed: ${res.status} ${res.body}`);
  return res.json as { id: string; claim_token: string; notify_email: string; name: string };
}

async function defaultProjectOf(token: string, workspaceId: string): Promise<string> {
  const res = await t.request('GET', `/v1/workspaces/${workspaceId}/projects`, { token });
  expect(res.status).toBe(200);
  const defaults = res.json.data.filter((p: { is_default: boolean }) => p.is_default);
  expect(defaults).toHaveLength(1);
  return defaults[0].id;
}

async function auditEvents(ownerToken: string, workspaceId: string, action: string, targetId: string) {
  const res = await t.request('GET', `/v1/workspaces/${workspaceId}/audit-events?limit=100`, { token: ownerToken });
  expect(res.status).toBe(200);
  return res.json.data.filter(
    (e: { action: string; target: { id: string } | null }) => e.action === action && e.target?.id === targetId,
  );
}

async function formRow(id: string): Promise<Record<string, any>> {
  const rows = await t.sql('select * from forms where id = ?', [id]);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

async function countForms(where: string, params: unknown[]): Promise<number> {
  const rows = await t.sql<{ n: number }>(`select count(*)::int as n from forms where ${where}`, params);
  return rows[0]!.n;
}

// ---------------------------------------------------------------------------------------------
// 1. Anonymous create
// ---------------------------------------------------------------------------------------------

describe('anonymous POST /v1/forms', () => {
  it('makes an unclaimed form with a claim token shown once; only its sha256 is stored', async () => {
    const name = unique('Waitlist');
    const notify = address('Owner'); // mixed case: stored lowercased
    const res = await t.request('POST', '/v1/forms', {
      body: { name, schema: SCHEMA, notify_email: notify, allowed_origins: ['https://example.com'] },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json).toMatchObject({
      name,
      state: 'unclaimed',
      workspace_id: null,
      project_id: null,
      schema: [{ name: 'email', type: 'email', required: true }],
      submission_mode: 'browser',
      allowed_origins: ['https://example.com'],
      notify_email: notify.toLowerCase(),
      notify_email_verified: false,
      redirect_url: null,
    });
    expect(res.json.id).toMatch(/^form_[0-9a-z]{26}$/);
    const token: string = res.json.claim_token;
    expect(token).toMatch(/^lfc_[0-9A-Za-z]{43}$/);

    const row = await formRow(res.json.id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();
    expect(row.project_id).toBeNull();
    expect(row.claim_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.claim_token_hash).toBe(sha256Hex(token));
    // The token itself is nowhere in the row.
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(4));
    // Nor in any log line.
    expect(t.logs.some((line) => line.includes(token.slice(4)))).toBe(false);
  });

  it('requires notify_email (missing or null) → 400 with detail notify_email, and stores nothing', async () => {
    const name = unique('No email');
    const missing = await t.request('POST', '/v1/forms', { body: { name, schema: SCHEMA } });
    expectError(missing, 400, 'invalid_request', { paths: ['notify_email'] });
    const nulled = await t.request('POST', '/v1/forms', { body: { name, schema: SCHEMA, notify_email: null } });
    expectError(nulled, 400, 'invalid_request', { paths: ['notify_email'] });
    expect(await countForms('name = ?', [name])).toBe(0);
  });

  it('refuses submission_mode api_key → 400 with detail submission_mode', async () => {
    const body = anonymousBody({ submission_mode: 'api_key' });
    const res = await t.request('POST', '/v1/forms', { body });
    expectError(res, 400, 'invalid_request', { paths: ['submission_mode'] });
    expect(await countForms('name = ?', [body.name])).toBe(0);
  });

  it('a workspace_id or project_id without credentials is 401 unauthenticated', async () => {
    const owner = await t.signup();
    const project = await defaultProjectOf(owner.token, owner.workspaceId);
    for (const extra of [{ workspace_id: owner.workspaceId }, { project_id: project }]) {
      const body = anonymousBody(extra);
      const res = await t.request('POST', '/v1/forms', { body });
      expectError(res, 401, 'unauthenticated');
      expect(await countForms('name = ?', [body.name])).toBe(0);
    }
  });

  it('a select field needs options; other fields take none', async () => {
    const noOptions = await t.request('POST', '/v1/forms', {
      body: anonymousBody({ schema: [{ name: 'topic', type: 'select' }] }),
    });
    expectError(noOptions, 400, 'invalid_request', { paths: ['schema.0.options'] });
    const emptyOptions = await t.request('POST', '/v1/forms', {
      body: anonymousBody({ schema: [{ name: 'topic', type: 'select', options: [] }] }),
    });
    expectError(emptyOptions, 400, 'invalid_request');
    expect(emptyOptions.json.error.details[0].path).toBe('schema.0.options');
    const textWithOptions = await t.request('POST', '/v1/forms', {
      body: anonymousBody({ schema: [{ name: 'topic', type: 'text', options: ['a'] }] }),
    });
    expectError(textWithOptions, 400, 'invalid_request', { paths: ['schema.0.options'] });

    const ok = await t.request('POST', '/v1/forms', {
      body: anonymousBody({ schema: [{ name: 'topic', type: 'select', options: ['Sales', 'Support'] }] }),
    });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.schema).toEqual([{ name: 'topic', type: 'select', required: false, options: ['Sales', 'Support'] }]);
  });

  it('normalises allowed_origins and rejects anything that is not a bare origin', async () => {
    const ok = await t.request('POST', '/v1/forms', {
      body: anonymousBody({
        allowed_origins: ['HTTPS://Example.COM:443', 'http://LOCALHOST:3000', 'https://example.com', 'http://a.test:80'],
      }),
    });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.allowed_origins).toEqual(['https://example.com', 'http://localhost:3000', 'http://a.test']);
    const row = await formRow(ok.json.id);
    expect(json(row.allowed_origins)).toEqual(['https://example.com', 'http://localhost:3000', 'http://a.test']);

    for (const bad of [
      'https://example.com/path',
      'https://example.com/?q=1',
      'https://example.com?q=1',
      'https://example.com#top',
      'https://user:pw@example.com',
      'https://user@example.com',
      'ftp://example.com',
      'javascript:alert(1)',
      'example.com',
      '*',
      '',
    ]) {
      const res = await t.request('POST', '/v1/forms', { body: anonymousBody({ allowed_origins: [bad] }) });
      expectError(res, 400, 'invalid_request', { paths: ['allowed_origins.0'] });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Unclaimed forms are invisible to keys and sessions
// ---------------------------------------------------------------------------------------------

describe('unclaimed forms are not found by keys or members', () => {
  it('a key gets 404 form_not_found on GET, PATCH, resend-verification and submissions', async () => {
    const form = await createAnonymous(t);
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);

    expectError(await t.request('GET', `/v1/forms/${form.id}`, { token: key }), 404, 'form_not_found');
    expectError(
      await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { name: 'Hijacked' } }),
      404,
      'form_not_found',
    );
    expectError(
      await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: key }),
      404,
      'form_not_found',
    );
    expectError(
      await t.request('POST', `/v1/forms/${form.id}/submissions`, { token: key, body: { email: 'a@example.com' } }),
      404,
      'form_not_found',
    );
    const row = await formRow(form.id);
    expect(row.name).toBe(form.name);
    expect(row.state).toBe('unclaimed');
    expect((await t.sql<{ n: number }>('select count(*)::int as n from submissions where form_id = ?', [form.id]))[0]!.n).toBe(0);
  });

  it('a member session gets 404 form_not_found too: the form has no workspace', async () => {
    const form = await createAnonymous(t);
    const member = await t.signup();
    expectError(await t.request('GET', `/v1/forms/${form.id}`, { token: member.token }), 404, 'form_not_found');
    expectError(
      await t.request('PATCH', `/v1/forms/${form.id}`, { token: member.token, body: { name: 'Hijacked' } }),
      404,
      'form_not_found',
    );
    expectError(
      await t.request('POST', `/v1/forms/${form.id}/resend-verification`, { token: member.token }),
      404,
      'form_not_found',
    );
    expectError(
      await t.request('GET', `/v1/forms/${form.id}/submissions`, { token: member.token }),
      404,
      'form_not_found',
    );
    expect((await formRow(form.id)).name).toBe(form.name);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Claim
// ---------------------------------------------------------------------------------------------

describe('POST /v1/forms/{id}/claim', () => {
  it('a member claims with the token into the default project; the token works once', async () => {
    const form = await createAnonymous(t, { redirect_url: 'https://example.com/thanks' });
    const owner = await t.signup();
    const defaultProject = await defaultProjectOf(owner.token, owner.workspaceId);

    const claimed = await t.request('POST', `/v1/forms/${form.id}/claim`, {
      token: owner.token,
      body: { claim_token: form.claim_token, workspace_id: owner.workspaceId },
    });
    expect(claimed.status, claimed.body).toBe(200);
    expect(claimed.json).toMatchObject({
      id: form.id,
      name: form.name,
      state: 'claimed',
      workspace_id: owner.workspaceId,
      project_id: defaultProject,
      notify_email: form.notify_email,
      redirect_url: 'https://example.com/thanks',
    });
    expect(claimed.json.claim_token).toBeUndefined();
    const row = await formRow(form.id);
    expect(row).toMatchObject({ state: 'claimed', workspace_id: owner.workspaceId, project_id: defaultProject });

    // The same token again, by the same caller or anyone else: already claimed.
    const again = await t.request('POST', `/v1/forms/${form.id}/claim`, {
      token: owner.token,
      body: { claim_token: form.claim_token, workspace_id: owner.workspaceId },
    });
    expectError(again, 409, 'form_already_claimed');
    const other = await t.signup();
    const stolen = await t.request('POST', `/v1/forms/${form.id}/claim`, {
      token: other.token,
      body: { claim_token: form.claim_token, workspace_id: other.workspaceId },
    });
    expectError(stolen, 409, 'form_already_claimed');
    expect((await formRow(form.id)).workspace_id).toBe(owner.workspaceId);

    // Now the workspace's members and keys reach it.
    const bySession = await t.request('GET', `/v1/forms/${form.id}`, { token: owner.token });
    expect(bySession.status).toBe(200);
    expect(bySession.json).toEqual(claimed.json);
    const { key, id: keyId } = await t.createKey(owner.token, owner.workspaceId);
    const byKey = await t.request('GET', `/v1/forms/${form.id}`, { token: key });
    expect(byKey.status).toBe(200);
    expect(byKey.json).toEqual(claimed.json);
    const patched = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { name: 'Claimed and renamed' } });
    expect(patched.status, patched.body).toBe(200);
    expect(patched.json.name).toBe('Claimed and renamed');
    // The other workspace's key still does not.
    const { key: otherKey } = await t.createKey(other.token, other.workspaceId);
    expectError(await t.request('GET', `/v1/forms/${form.id}`, { token: otherKey }), 404, 'form_not_found');

    const events = await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      workspace_id: owner.workspaceId,
      actor: { type: 'user', id: owner.userId },
      target: { type: 'form', id: form.id },
    });
    const updates = await auditEvents(owner.token, owner.workspaceId, 'form.updated', form.id);
    expect(updates).toHaveLength(1);
    expect(updates[0].actor).toEqual({ type: 'api_key', id: keyId });
    expect(JSON.stringify(events)).not.toContain(form.claim_token.slice(4));
  });

  it('a plain member (not owner) of a workspace may claim into it', async () => {
    const form = await createAnonymous(t);
    const owner = await t.signup();
    const member = await t.signup();
    await t.addMember(owner.token, owner.workspaceId, member.email, 'member');
    const res = await t.request('POST', `/v1/forms/${form.id}/claim`, {
      token: member.token,
      body: { claim_token: form.claim_token, workspace_id: owner.workspaceId },
    });
    expect(res.status, res.body).toBe(200);
    expect(res.json.workspace_id).toBe(owner.workspaceId);
    const events = await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id);
    expect(events.map((e: { actor: unknown }) => e.actor)).toEqual([{ type: 'user', id: member.userId }]);
  });

  it('a wrong or malformed token, or an unknown form, is 404 form_not_found and claims nothing', async () => {
    const form = await createAnonymous(t);
    const other = await createAnonymous(t);
    const user = await t.signup();
    const attempt = (formId: string, claimToken: unknown) =>
      t.request('POST', `/v1/forms/${encodeURIComponent(formId)}/claim`, {
        token: user.token,
        body: { claim_token: claimToken, workspace_id: user.workspaceId },
      });

    expectError(await attempt(form.id, strayClaimToken()), 404, 'form_not_found');
    // Another form's real token does not open this one.
    expectError(await attempt(form.id, other.claim_token), 404, 'form_not_found');
    for (const malformed of ['lfc_short', `${form.claim_token}x`, form.claim_token.slice(0, -1), form.claim_token.replace('lfc_', 'lfk_'), '']) {
      expectError(await attempt(form.id, malformed), 404, 'form_not_found');
    }
    // Unknown forms, well-formed or not, even with a real token.
    expectError(await attempt('form_01jd00000000000000000000aa', form.claim_token), 404, 'form_not_found');
    expectError(await attempt('not-a-form', form.claim_token), 404, 'form_not_found');

    const row = await formRow(form.id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();
    // The right token still works afterwards.
    const ok = await attempt(form.id, form.claim_token);
    expect(ok.status, ok.body).toBe(200);
  });

  it('someone else’s workspace → 404 workspace_not_found; a key → 403; no credentials → 401', async () => {
    const form = await createAnonymous(t);
    const owner = await t.signup();
    const outsider = await t.signup();
    const body = { claim_token: form.claim_token, workspace_id: owner.workspaceId };

    expectError(
      await t.request('POST', `/v1/forms/${form.id}/claim`, { token: outsider.token, body }),
      404,
      'workspace_not_found',
    );
    expectError(
      await t.request('POST', `/v1/forms/${form.id}/claim`, {
        token: outsider.token,
        body: { ...body, workspace_id: 'ws_01jd00000000000000000000aa' },
      }),
      404,
      'workspace_not_found',
    );
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    expectError(await t.request('POST', `/v1/forms/${form.id}/claim`, { token: key, body }), 403, 'session_required');
    expectError(await t.request('POST', `/v1/forms/${form.id}/claim`, { body }), 401, 'unauthenticated');

    const row = await formRow(form.id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();
    expect(await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id)).toHaveLength(0);
  });

  it('5 concurrent claims by members of different workspaces: exactly one 200, four 409', async () => {
    const form = await createAnonymous(t);
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await t.signup());
    const results = await Promise.all(
      users.map((u) =>
        t.request('POST', `/v1/forms/${form.id}/claim`, {
          token: u.token,
          body: { claim_token: form.claim_token, workspace_id: u.workspaceId },
        }),
      ),
    );
    const winners = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(winners, results.map((r) => `${r.status} ${r.body}`).join('\n')).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 409, 'form_already_claimed');
    const winner = users[winners[0]!]!;
    expect(results[winners[0]!]!.json.workspace_id).toBe(winner.workspaceId);
    const row = await formRow(form.id);
    expect(row.state).toBe('claimed');
    expect(row.workspace_id).toBe(winner.workspaceId);
    expect(row.project_id).toBe(await defaultProjectOf(winner.token, winner.workspaceId));
    const claimedEvents = await t.sql<{ n: number }>(
      "select count(*)::int as n from audit_events where action = 'form.claimed' and target_id = ?",
      [form.id],
    );
    expect(claimedEvents[0]!.n).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. The whole form, via a key
// ---------------------------------------------------------------------------------------------

const FULL_SCHEMA = [
  { name: 'name', type: 'text', required: true, label: 'Your name' },
  { name: 'message', type: 'textarea', label: 'Message' },
  { name: 'email', type: 'email', required: true },
  { name: 'age', type: 'number' },
  { name: 'site', type: 'url' },
  { name: 'phone', type: 'tel' },
  { name: 'when', type: 'date' },
  { name: 'agree', type: 'checkbox', required: true, label: 'I agree' },
  { name: 'topic', type: 'select', options: ['Sales', 'Support', 'Other'], label: 'Topic' },
];
const FULL_SCHEMA_OUT = FULL_SCHEMA.map((f) => ({ required: false, ...f }));

async function ownerWithKeyAndProject() {
  const owner = await t.signup();
  const { key, id: keyId } = await t.createKey(owner.token, owner.workspaceId);
  const project = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, {
    token: owner.token,
    body: { name: 'Marketing' },
  });
  expect(project.status, project.body).toBe(201);
  const defaultProject = await defaultProjectOf(owner.token, owner.workspaceId);
  return { owner, key, keyId, projectId: project.json.id as string, defaultProject };
}

describe('the whole form via a key', () => {
  it('creates a form with every field, stores and returns it, and audits form.created', async () => {
    const { owner, key, keyId, projectId } = await ownerWithKeyAndProject();
    const notify = address('Ops').toUpperCase().replace('EXAMPLE.COM', 'Example.com');
    const body = {
      name: '  Contact us  ',
      schema: FULL_SCHEMA,
      submission_mode: 'api_key',
      allowed_origins: ['https://Example.com', 'https://app.example.com:8443'],
      notify_email: notify,
      redirect_url: 'https://example.com/thanks?from=form',
      project_id: projectId,
    };
    const created = await t.request('POST', '/v1/forms', { token: key, body });
    expect(created.status, created.body).toBe(201);
    expect(created.json).toMatchObject({
      workspace_id: owner.workspaceId,
      project_id: projectId,
      name: 'Contact us',
      state: 'claimed',
      schema: FULL_SCHEMA_OUT,
      submission_mode: 'api_key',
      allowed_origins: ['https://example.com', 'https://app.example.com:8443'],
      notify_email: notify.toLowerCase(),
      notify_email_verified: false,
      redirect_url: 'https://example.com/thanks?from=form',
    });
    expect(created.json.claim_token ?? null).toBeNull();
    expect(Date.parse(created.json.created_at)).not.toBeNaN();
    expect(Date.parse(created.json.updated_at)).not.toBeNaN();

    const read = await t.request('GET', `/v1/forms/${created.json.id}`, { token: key });
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const row = await formRow(created.json.id);
    expect(row).toMatchObject({
      workspace_id: owner.workspaceId,
      project_id: projectId,
      name: 'Contact us',
      state: 'claimed',
      submission_mode: 'api_key',
      notify_email: notify.toLowerCase(),
      notify_email_verified: false,
      redirect_url: 'https://example.com/thanks?from=form',
      claim_token_hash: null,
    });
    expect(json(row.schema)).toEqual(FULL_SCHEMA_OUT);
    expect(json(row.allowed_origins)).toEqual(['https://example.com', 'https://app.example.com:8443']);

    const events = await auditEvents(owner.token, owner.workspaceId, 'form.created', created.json.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      workspace_id: owner.workspaceId,
      actor: { type: 'api_key', id: keyId },
      target: { type: 'form', id: created.json.id },
    });
    expect(JSON.stringify(events)).not.toContain(key);
  });

  it('PATCHes each field on its own, then all together; each change is audited with its fields', async () => {
    const { owner, key, keyId, projectId, defaultProject } = await ownerWithKeyAndProject();
    const created = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Before', schema: SCHEMA, allowed_origins: ['https://old.example'] },
    });
    expect(created.status, created.body).toBe(201);
    const id: string = created.json.id;
    expect(created.json.project_id).toBe(defaultProject);

    const newNotify = address('notify');
    const steps: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['name', { name: 'After' }, { name: 'After' }],
      ['schema', { schema: FULL_SCHEMA }, { schema: FULL_SCHEMA_OUT }],
      ['submission_mode', { submission_mode: 'api_key' }, { submission_mode: 'api_key' }],
      [
        'allowed_origins',
        { allowed_origins: ['HTTPS://New.Example:443', 'http://localhost:5173'] },
        { allowed_origins: ['https://new.example', 'http://localhost:5173'] },
      ],
      ['project_id', { project_id: projectId }, { project_id: projectId }],
      ['redirect_url', { redirect_url: 'https://new.example/done' }, { redirect_url: 'https://new.example/done' }],
      ['notify_email', { notify_email: newNotify }, { notify_email: newNotify, notify_email_verified: false }],
    ];
    let previous = created.json;
    for (const [field, patch, expected] of steps) {
      const res = await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: patch });
      expect(res.status, `${field}: ${res.body}`).toBe(200);
      // The patched field changed; nothing else did.
      const { updated_at: _a, ...rest } = res.json;
      const { updated_at: _b, ...before } = previous;
      expect(rest, field).toEqual({ ...before, ...expected });
      const read = await t.request('GET', `/v1/forms/${id}`, { token: key });
      expect(read.json, field).toEqual(res.json);
      previous = res.json;
    }
    const row = await formRow(id);
    expect(row).toMatchObject({
      name: 'After',
      submission_mode: 'api_key',
      project_id: projectId,
      redirect_url: 'https://new.example/done',
      notify_email: newNotify,
    });
    expect(json(row.schema)).toEqual(FULL_SCHEMA_OUT);

    // All together.
    const together = await t.request('PATCH', `/v1/forms/${id}`, {
      token: key,
      body: {
        name: 'Together',
        schema: SCHEMA,
        submission_mode: 'browser',
        allowed_origins: [],
        project_id: defaultProject,
        redirect_url: 'http://example.org/ok',
        notify_email: null,
      },
    });
    expect(together.status, together.body).toBe(200);
    expect(together.json).toMatchObject({
      id,
      state: 'claimed',
      workspace_id: owner.workspaceId,
      name: 'Together',
      schema: [{ name: 'email', type: 'email', required: true }],
      submission_mode: 'browser',
      allowed_origins: [],
      project_id: defaultProject,
      redirect_url: 'http://example.org/ok',
      notify_email: null,
      notify_email_verified: false,
    });
    expect((await t.request('GET', `/v1/forms/${id}`, { token: key })).json).toEqual(together.json);

    const updates = await auditEvents(owner.token, owner.workspaceId, 'form.updated', id);
    expect(updates).toHaveLength(steps.length + 1);
    for (const event of updates) expect(event.actor).toEqual({ type: 'api_key', id: keyId });
    // Newest first: the combined change, then the single ones in reverse.
    const fieldLists = updates.map((e: { data: { fields: string[] } }) => [...e.data.fields].sort());
    expect(fieldLists).toEqual([
      ['allowed_origins', 'name', 'notify_email', 'project_id', 'redirect_url', 'schema', 'submission_mode'],
      ...steps.map(([field]) => [field]).reverse(),
    ]);
  });

  it('notify_email null clears a verified address; redirect_url null clears it', async () => {
    const { key } = await ownerWithKeyAndProject();
    const notify = address('verify-me');
    const created = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Verified', schema: SCHEMA, notify_email: notify, redirect_url: 'https://example.com/thanks' },
    });
    expect(created.status, created.body).toBe(201);
    const id: string = created.json.id;
    const link = `/v1/email-verifications/${await verificationTokenSentTo(t, notify)}`;
    // Opening the link changes nothing; its page's button (a form post) verifies.
    expect((await t.request('GET', link)).status).toBe(200);
    expect((await t.request('GET', `/v1/forms/${id}`, { token: key })).json.notify_email_verified).toBe(false);
    const verified = await t.request('POST', link);
    expect(verified.status).toBe(200);
    expect((await t.request('GET', `/v1/forms/${id}`, { token: key })).json.notify_email_verified).toBe(true);

    // The same address (in other case) is no change: it stays verified.
    const same = await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: { notify_email: notify.toUpperCase() } });
    expect(same.status, same.body).toBe(200);
    expect(same.json).toMatchObject({ notify_email: notify, notify_email_verified: true });

    const cleared = await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: { notify_email: null } });
    expect(cleared.status, cleared.body).toBe(200);
    expect(cleared.json).toMatchObject({ notify_email: null, notify_email_verified: false });
    expect(await formRow(id)).toMatchObject({ notify_email: null, notify_email_verified: false });
    expectError(await t.request('POST', `/v1/forms/${id}/resend-verification`, { token: key }), 409, 'no_notify_email');

    const noRedirect = await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: { redirect_url: null } });
    expect(noRedirect.status, noRedirect.body).toBe(200);
    expect(noRedirect.json.redirect_url).toBeNull();
    expect((await formRow(id)).redirect_url).toBeNull();
  });

  it('a redirect_url that is not http(s) is 400 on create and on PATCH', async () => {
    const { key } = await ownerWithKeyAndProject();
    const created = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Redirects', schema: SCHEMA, redirect_url: 'https://example.com/ok' },
    });
    expect(created.status, created.body).toBe(201);
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'ftp://example.com/file',
      'data:text/html,<script>alert(1)</script>',
      'https://user:pw@example.com/',
      '/relative/path',
      'not a url',
      '',
    ]) {
      const onCreate = await t.request('POST', '/v1/forms', {
        token: key,
        body: { name: 'Bad redirect', schema: SCHEMA, redirect_url: bad },
      });
      expectError(onCreate, 400, 'invalid_request', { paths: ['redirect_url'] });
      const onPatch = await t.request('PATCH', `/v1/forms/${created.json.id}`, { token: key, body: { redirect_url: bad } });
      expectError(onPatch, 400, 'invalid_request', { paths: ['redirect_url'] });
    }
    expect((await formRow(created.json.id)).redirect_url).toBe('https://example.com/ok');
    expect(await countForms("name = 'Bad redirect'", [])).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Listing a workspace's forms
// ---------------------------------------------------------------------------------------------

describe('GET /v1/workspaces/{ws}/forms', () => {
  it('members see their workspace’s claimed forms, newest first, page by page', async () => {
    const owner = await t.signup();
    const member = await t.signup();
    await t.addMember(owner.token, owner.workspaceId, member.email, 'member');
    const { key } = await t.createKey(owner.token, owner.workspaceId);

    const ids: string[] = [];
    for (const name of ['First', 'Second']) {
      const res = await t.request('POST', '/v1/forms', { token: key, body: { name, schema: SCHEMA } });
      expect(res.status).toBe(201);
      ids.push(res.json.id);
    }
    const bySession = await t.request('POST', '/v1/forms', {
      token: member.token,
      body: { name: 'Third', schema: SCHEMA, workspace_id: owner.workspaceId },
    });
    expect(bySession.status, bySession.body).toBe(201);
    ids.push(bySession.json.id);
    // An anonymous form claimed into the workspace joins the list; one left unclaimed does not.
    const claimedLater = await createAnonymous(t);
    const claim = await t.request('POST', `/v1/forms/${claimedLater.id}/claim`, {
      token: owner.token,
      body: { claim_token: claimedLater.claim_token, workspace_id: owner.workspaceId },
    });
    expect(claim.status).toBe(200);
    ids.push(claimedLater.id);
    await createAnonymous(t);
    // Another workspace's forms are not listed.
    const stranger = await t.signup();
    const strangerKey = await t.createKey(stranger.token, stranger.workspaceId);
    expect((await t.request('POST', '/v1/forms', { token: strangerKey.key, body: { name: 'Theirs', schema: SCHEMA } })).status).toBe(201);

    const newestFirst = [...ids].reverse();
    for (const who of [owner, member]) {
      const all = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms`, { token: who.token });
      expect(all.status, all.body).toBe(200);
      expect(all.json.data.map((f: { id: string }) => f.id)).toEqual(newestFirst);
      expect(all.json.next_cursor).toBeNull();
      for (const f of all.json.data) expect(f).toMatchObject({ state: 'claimed', workspace_id: owner.workspaceId });
      expect(all.json.data.find((f: { id: string }) => f.id === ids[0])).toEqual(
        (await t.request('GET', `/v1/forms/${ids[0]}`, { token: key })).json,
      );
    }

    const page1 = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms?limit=3`, { token: member.token });
    expect(page1.status).toBe(200);
    expect(page1.json.data.map((f: { id: string }) => f.id)).toEqual(newestFirst.slice(0, 3));
    expect(page1.json.next_cursor).toEqual(expect.any(String));
    const page2 = await t.request(
      'GET',
      `/v1/workspaces/${owner.workspaceId}/forms?limit=3&cursor=${encodeURIComponent(page1.json.next_cursor)}`,
      { token: member.token },
    );
    expect(page2.status).toBe(200);
    expect(page2.json.data.map((f: { id: string }) => f.id)).toEqual(newestFirst.slice(3));
    expect(page2.json.next_cursor).toBeNull();

    expectError(
      await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms?limit=0`, { token: owner.token }),
      400,
      'invalid_request',
    );
  });

  it('keys → 403 session_required; outsiders → 404 workspace_not_found; nobody → 401', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    const outsider = await t.signup();
    const url = `/v1/workspaces/${owner.workspaceId}/forms`;
    expectError(await t.request('GET', url, { token: key }), 403, 'session_required');
    expectError(await t.request('GET', url, { token: outsider.token }), 404, 'workspace_not_found');
    expectError(
      await t.request('GET', '/v1/workspaces/ws_01jd00000000000000000000aa/forms', { token: outsider.token }),
      404,
      'workspace_not_found',
    );
    expectError(await t.request('GET', url), 401, 'unauthenticated');
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Idempotency-Key on POST /v1/forms
// ---------------------------------------------------------------------------------------------

describe('Idempotency-Key on POST /v1/forms', () => {
  it('with a key: a retry replays the stored 201 with no second row; another body is 409', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    const headers = { 'idempotency-key': unique('order') };
    const body = { name: 'Once', schema: SCHEMA, allowed_origins: ['https://example.com'] };

    const first = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(first.status, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(second.status, second.body).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json).toEqual(first.json);
    // The same body with its keys in another order is the same request.
    const reordered = await t.request('POST', '/v1/forms', {
      token: key,
      body: { allowed_origins: ['https://example.com'], schema: SCHEMA, name: 'Once' },
      headers,
    });
    expect(reordered.status).toBe(201);
    expect(reordered.json.id).toBe(first.json.id);
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(1);

    const other = await t.request('POST', '/v1/forms', { token: key, body: { ...body, name: 'Twice' }, headers });
    expectError(other, 409, 'idempotency_key_reused');
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(1);
  });

  it('keys are per caller: another key (or a session) with the same Idempotency-Key makes its own form', async () => {
    const owner = await t.signup();
    const a = await t.createKey(owner.token, owner.workspaceId);
    const b = await t.createKey(owner.token, owner.workspaceId);
    const headers = { 'idempotency-key': unique('shared') };
    const body = { name: 'Per caller', schema: SCHEMA };

    const byA = await t.request('POST', '/v1/forms', { token: a.key, body, headers });
    const byB = await t.request('POST', '/v1/forms', { token: b.key, body, headers });
    const bySession = await t.request('POST', '/v1/forms', {
      token: owner.token,
      body: { ...body, workspace_id: owner.workspaceId },
      headers,
    });
    for (const res of [byA, byB, bySession]) {
      expect(res.status, res.body).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(new Set([byA.json.id, byB.json.id, bySession.json.id]).size).toBe(3);
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(3);
    // Each caller's own retry still replays its own form.
    const retryB = await t.request('POST', '/v1/forms', { token: b.key, body, headers });
    expect(retryB.json.id).toBe(byB.json.id);
    expect(retryB.headers['idempotent-replayed']).toBe('true');
  });

  it('anonymous: the replay is the same form with claim_token null, and the stored record holds no token', async () => {
    const idem = unique('anon');
    const body = anonymousBody();
    const first = await t.request('POST', '/v1/forms', { body, headers: { 'idempotency-key': idem } });
    expect(first.status, first.body).toBe(201);
    expect(first.json.claim_token).toMatch(/^lfc_[0-9A-Za-z]{43}$/);
    const replay = await t.request('POST', '/v1/forms', { body, headers: { 'idempotency-key': idem } });
    expect(replay.status, replay.body).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json).toEqual({ ...first.json, claim_token: null });
    expect(await countForms('name = ?', [body.name])).toBe(1);

    const records = await t.sql<{ body: string }>('select response_body::text as body from idempotency_records where key = ?', [idem]);
    expect(records).toHaveLength(1);
    expect(records[0]!.body).not.toContain(first.json.claim_token.slice(4));

    // The token from the first response still claims the form.
    const user = await t.signup();
    const claimed = await t.request('POST', `/v1/forms/${first.json.id}/claim`, {
      token: user.token,
      body: { claim_token: first.json.claim_token, workspace_id: user.workspaceId },
    });
    expect(claimed.status, claimed.body).toBe(200);
  });

  it('8 concurrent identical requests: all 201 with one id, exactly one row', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    const headers = { 'idempotency-key': unique('burst') };
    const body = { name: 'Burst', schema: SCHEMA };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.request('POST', '/v1/forms', { token: key, body, headers })),
    );
    for (const res of results) expect(res.status, res.body).toBe(201);
    expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(1);
  });

  it('a request that failed is not stored: the same key then works with a valid body', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    const idem = unique('retry-after-fix');
    const headers = { 'idempotency-key': idem };

    const invalid = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Fixed', schema: [{ name: 'topic', type: 'select' }] },
      headers,
    });
    expectError(invalid, 400, 'invalid_request');
    const unknownProject = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Fixed', schema: SCHEMA, project_id: 'prj_01jd00000000000000000000aa' },
      headers,
    });
    expectError(unknownProject, 404, 'project_not_found');
    expect((await t.sql<{ n: number }>('select count(*)::int as n from idempotency_records where key = ?', [idem]))[0]!.n).toBe(0);

    const fixed = await t.request('POST', '/v1/forms', { token: key, body: { name: 'Fixed', schema: SCHEMA }, headers });
    expect(fixed.status, fixed.body).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();

    // Anonymous too: a 400 for the missing notify_email leaves the key free.
    const anonKey = unique('anon-retry');
    const anonBody = anonymousBody();
    const { notify_email: _drop, ...withoutEmail } = anonBody;
    expectError(
      await t.request('POST', '/v1/forms', { body: withoutEmail, headers: { 'idempotency-key': anonKey } }),
      400,
      'invalid_request',
      { paths: ['notify_email'] },
    );
    const anonFixed = await t.request('POST', '/v1/forms', { body: anonBody, headers: { 'idempotency-key': anonKey } });
    expect(anonFixed.status, anonFixed.body).toBe(201);
    expect(anonFixed.json.claim_token).toMatch(/^lfc_/);
  });

  it('an expired record no longer replays', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    const idem = unique('expiring');
    const headers = { 'idempotency-key': idem };
    const body = { name: 'Expiring', schema: SCHEMA };
    const first = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(first.status).toBe(201);

    await t.sql('update idempotency_records set expires_at = ? where key = ?', [
      new Date(Date.now() - 3600_000).toISOString(),
      idem,
    ]);
    const afterExpiry = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(afterExpiry.status, afterExpiry.body).toBe(201);
    expect(afterExpiry.headers['idempotent-replayed']).toBeUndefined();
    expect(afterExpiry.json.id).not.toBe(first.json.id);
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(2);

    // The fresh record replays as usual; another body is refused again.
    const replay = await t.request('POST', '/v1/forms', { token: key, body, headers });
    expect(replay.json.id).toBe(afterExpiry.json.id);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(2);
  });

  it('a malformed Idempotency-Key is 400 and creates nothing', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    for (const bad of ['x'.repeat(256), 'y'.repeat(300), 'has space', 'tab\there']) {
      const res = await t.request('POST', '/v1/forms', {
        token: key,
        body: { name: 'Bad key', schema: SCHEMA },
        headers: { 'idempotency-key': bad },
      });
      expectError(res, 400, 'invalid_request', { paths: ['Idempotency-Key'] });
    }
    const anon = anonymousBody();
    expectError(
      await t.request('POST', '/v1/forms', { body: anon, headers: { 'idempotency-key': 'z'.repeat(300) } }),
      400,
      'invalid_request',
      { paths: ['Idempotency-Key'] },
    );
    expect(await countForms('workspace_id = ?', [owner.workspaceId])).toBe(0);
    expect(await countForms('name = ?', [anon.name])).toBe(0);
    // 255 visible characters is the longest good key.
    const longest = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Good key', schema: SCHEMA },
      headers: { 'idempotency-key': `${unique('k')}${'~'.repeat(240)}`.slice(0, 255) },
    });
    expect(longest.status, longest.body).toBe(201);
  });
});

// ---------------------------------------------------------------------------------------------
// 7. Rate limits
// ---------------------------------------------------------------------------------------------

describe('rate limits', () => {
  /** Servers with one rate limit each turned on (the main one has them all off). */
  let anonLimited: TestServer;
  let loginLimited: TestServer;
  let keyFailuresLimited: TestServer;
  // One at a time, each in a hook of its own: four PGlite databases starting at once on a loaded
  // two-core machine could outlast any one hook's time limit.
  beforeAll(async () => {
    anonLimited = await startTestServer({ LFK_RATE_LIMIT_ANONYMOUS_FORMS: '2/1h' });
  });
  beforeAll(async () => {
    loginLimited = await startTestServer({ LFK_RATE_LIMIT_LOGIN: '3/1m', LFK_TRUST_PROXY: 'true' });
  });
  beforeAll(async () => {
    keyFailuresLimited = await startTestServer({ LFK_RATE_LIMIT_KEY_FAILURES: '3/1m', LFK_TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await Promise.all([anonLimited, loginLimited, keyFailuresLimited].map((server) => server?.close()));
  });

  it('LFK_RATE_LIMIT_ANONYMOUS_FORMS: the third anonymous create is 429; keys and sessions are not limited', async () => {
    const s = anonLimited;
    for (let i = 0; i < 2; i++) {
      const res = await s.request('POST', '/v1/forms', { body: anonymousBody() });
      expect(res.status, res.body).toBe(201);
    }
    const limited = await s.request('POST', '/v1/forms', { body: anonymousBody() });
    expectError(limited, 429, 'rate_limited');
    expectRetryAfter(limited);
    const stored = await s.sql<{ n: number }>("select count(*)::int as n from forms where state = 'unclaimed'");
    expect(stored[0]!.n).toBe(2);

    const owner = await s.signup();
    const { key } = await s.createKey(owner.token, owner.workspaceId);
    for (let i = 0; i < 4; i++) {
      const res = await s.request('POST', '/v1/forms', { token: key, body: { name: `Keyed ${i}`, schema: SCHEMA } });
      expect(res.status, res.body).toBe(201);
    }
    const bySession = await s.request('POST', '/v1/forms', {
      token: owner.token,
      body: { name: 'By session', schema: SCHEMA, workspace_id: owner.workspaceId },
    });
    expect(bySession.status, bySession.body).toBe(201);
    // Anonymous creates are still held back.
    expectError(await s.request('POST', '/v1/forms', { body: anonymousBody() }), 429, 'rate_limited');
  });

  it('LFK_RATE_LIMIT_LOGIN: the 4th attempt from an address is 429 even with the right password', async () => {
    const s = loginLimited;
    const email = address('login');
    const signup = await s.request('POST', '/v1/auth/signup', {
      body: { email, password: PASSWORD },
      headers: { 'x-forwarded-for': '203.0.113.1' },
    });
    expect(signup.status, signup.body).toBe(201);

    const from = (ip: string, password: string) =>
      s.request('POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });
    expectError(await from('203.0.113.2', 'wrong password 1'), 401, 'invalid_credentials');
    expectError(await from('203.0.113.2', 'wrong password 2'), 401, 'invalid_credentials');
    expect((await from('203.0.113.2', PASSWORD)).status).toBe(200);
    const fourth = await from('203.0.113.2', PASSWORD);
    expectError(fourth, 429, 'rate_limited');
    expectRetryAfter(fourth);
    expect(fourth.json.session_token).toBeUndefined();
    expect(fourth.headers['set-cookie']).toBeUndefined();
    // Sign-up counts against the same limit.
    expectError(
      await s.request('POST', '/v1/auth/signup', {
        body: { email: address('late'), password: PASSWORD },
        headers: { 'x-forwarded-for': '203.0.113.2' },
      }),
      429,
      'rate_limited',
    );
    // Another address is not affected.
    expect((await from('203.0.113.3', PASSWORD)).status).toBe(200);
  });

  it('LFK_RATE_LIMIT_KEY_FAILURES: after 3 refused keys even a valid key is 429; sessions are unaffected', async () => {
    const s = keyFailuresLimited;
    const owner = await s.signup();
    const { key, id } = await s.createKey(owner.token, owner.workspaceId);
    const { key: revoked, id: revokedId } = await s.createKey(owner.token, owner.workspaceId);
    expect((await s.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${revokedId}`, { token: owner.token })).status).toBe(204);
    const form = await s.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Guarded', schema: SCHEMA },
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(form.status, form.body).toBe(201);

    const attacker = { 'x-forwarded-for': '198.51.100.2' };
    const unknown = `lfk_${'A'.repeat(36)}`;
    for (const bad of [unknown, revoked, 'not-a-key']) {
      expectError(await s.request('GET', `/v1/forms/${form.json.id}`, { token: bad, headers: attacker }), 401, 'invalid_api_key');
    }
    const held = await s.request('GET', `/v1/forms/${form.json.id}`, { token: key, headers: attacker });
    expectError(held, 429, 'rate_limited');
    expectRetryAfter(held);
    const heldCreate = await s.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'Held', schema: SCHEMA },
      headers: attacker,
    });
    expectError(heldCreate, 429, 'rate_limited');
    expect((await s.sql<{ n: number }>("select count(*)::int as n from forms where name = 'Held'"))[0]!.n).toBe(0);

    // A session bearer from the same address is not held back.
    const session = await s.request('GET', '/v1/auth/session', { token: owner.token, headers: attacker });
    expect(session.status, session.body).toBe(200);
    const bySession = await s.request('GET', `/v1/forms/${form.json.id}`, { token: owner.token, headers: attacker });
    expect(bySession.status, bySession.body).toBe(200);
    // The valid key from another address still works, and the key itself was never revoked.
    const elsewhere = await s.request('GET', `/v1/forms/${form.json.id}`, {
      token: key,
      headers: { 'x-forwarded-for': '198.51.100.3' },
    });
    expect(elsewhere.status, elsewhere.body).toBe(200);
    const keys = await s.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(keys.json.data.find((k: { id: string }) => k.id === id).status).toBe('active');
  });

  it('an invalid rate-limit value makes loadConfig throw ConfigError naming the variable', () => {
    for (const name of [
      'LFK_RATE_LIMIT_ANONYMOUS_FORMS',
      'LFK_RATE_LIMIT_LOGIN',
      'LFK_RATE_LIMIT_KEY_FAILURES',
      'LFK_RATE_LIMIT_BROWSER_SUBMISSIONS',
    ]) {
      for (const bad of ['ten', '10', '0/1m', '5/0m', '5/1y', '-1/1m', '5/m', 'none']) {
        let thrown: unknown;
        try {
          loadConfig({ LFK_DATA_DIR: 'memory://', [name]: bad });
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${name}=${bad}`).toBeInstanceOf(ConfigError);
        expect((thrown as Error).message).toContain(name);
      }
    }
    const good = loadConfig({ LFK_DATA_DIR: 'memory://', LFK_RATE_LIMIT_LOGIN: '5/2m', LFK_RATE_LIMIT_KEY_FAILURES: 'off' });
    expect(good.rateLimits.login).toEqual({ capacity: 5, windowMs: 120_000 });
    expect(good.rateLimits.key_failures).toBeNull();
  });
});
