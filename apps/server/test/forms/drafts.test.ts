/**
 * Drafts: what a visitor typed, kept for the form's page so a closed tab loses nothing. Started,
 * read and saved from the form's own origins with a resume token the page keeps; completed by the
 * submission that carries it; listed for the form's members; gone after its lifetime.
 */
import { Draft } from '@lfk/db';
import { createForm, expectError, ORIGIN, startTestServer, type TestServer } from '@lfk/server/testing';
import { emailsSentTo, until } from '@lfk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex, t, useWorld } from './fixtures.ts';

useWorld();

let owner: Awaited<ReturnType<TestServer['signupWithKey']>>;
beforeAll(async () => {
  owner = await t.signupWithKey();
});

const FIELDS = [
  { name: 'name', type: 'text', required: true },
  { name: 'email', type: 'email', required: true },
  { name: 'newsletter', type: 'checkbox' },
  { name: 'card', type: 'text', private: true },
  { name: 'cv', type: 'file' },
];

const draftsForm = (extra: Record<string, unknown> = {}) =>
  createForm(t, owner.key, { name: 'Application', schema: FIELDS, allowed_origins: [ORIGIN], drafts: { enabled: true }, ...extra });

const fromPage = (method: string, path: string, body?: unknown, origin = ORIGIN) =>
  t.request(method, path, { headers: { origin }, ...(body !== undefined ? { body } : {}) });

const DAY_MS = 86_400_000;

describe('a draft kept for the page', () => {
  it('is started from an allowed origin with a resume token shown once, read and saved with it', async () => {
    const form = await draftsForm();
    const started = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Ada', email: 'ada@', newsletter: true, page_only: 'x' } });
    expect(started.status, started.body).toBe(201);
    expect(started.headers['access-control-allow-origin']).toBe(ORIGIN);
    // Half-typed values are kept as typed; a name the form does not have is dropped.
    expect(started.json).toMatchObject({ id: expect.stringMatching(/^drf_/), data: { name: 'Ada', email: 'ada@', newsletter: true } });
    expect(started.json.data).not.toHaveProperty('page_only');
    const token: string = started.json.resume_token;
    expect(token).toMatch(/^lfp_[0-9A-Za-z]{43}$/);
    const lifetime = Date.parse(started.json.expires_at) - Date.parse(started.json.updated_at);
    expect(lifetime).toBe(7 * DAY_MS);
    // Only the token's hash is kept, and no log line holds it.
    const [row] = await t.sql<{ token_hash: string }>('select token_hash from drafts where id = ?', [started.json.id]);
    expect(row!.token_hash).toBe(sha256Hex(token));
    expect(t.logs.some((line) => line.includes(token.slice(4)))).toBe(false);

    const read = await fromPage('GET', `/v1/forms/${form.id}/drafts/${token}`);
    expect(read.status, read.body).toBe(200);
    expect(read.json.data).toEqual({ name: 'Ada', email: 'ada@', newsletter: true });

    const saved = await fromPage('PUT', `/v1/forms/${form.id}/drafts/${token}`, { data: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    expect(saved.status, saved.body).toBe(200);
    expect(saved.json.data).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(Date.parse(saved.json.expires_at)).toBeGreaterThanOrEqual(Date.parse(started.json.expires_at));
    expect((await fromPage('GET', `/v1/forms/${form.id}/drafts/${token}`)).json.data.name).toBe('Ada Lovelace');
  });

  it('never keeps a private field or a file, nor a value longer than its field takes', async () => {
    const form = await draftsForm();
    const privateValue = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Ada', card: '4242 4242 4242 4242' } });
    expectError(privateValue, 422, 'validation_failed');
    expect(privateValue.json.error.details).toEqual([{ path: 'data.card', message: expect.stringContaining('private') }]);
    expectError(await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { cv: 'file.pdf' } }), 422, 'validation_failed');
    expectError(await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'x'.repeat(10_001) } }), 422, 'validation_failed');
    expectError(await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: true } }), 422, 'validation_failed');
    expect(await t.count('drafts where form_id = ?', [form.id])).toBe(0);
  });

  it('refuses hostile bodies with the documented 4xx, keeping nothing', async () => {
    const form = await draftsForm();
    const url = `/v1/forms/${form.id}/drafts`;
    const raw = (body: string) => t.request('POST', url, { headers: { origin: ORIGIN, 'content-type': 'application/json' }, raw: body });
    for (const bad of ['a\u0000b', 'x\ud800', 'tab\there\u0007']) {
      const res = await fromPage('POST', url, { data: { name: bad } });
      expectError(res, 422, 'validation_failed');
      expect(res.json.error.details[0].path).toBe('data.name');
    }
    // Escaped in the JSON text, a lone surrogate still reaches the check.
    expectError(await raw('{"data":{"name":"x\\ud800"}}'), 422, 'validation_failed');
    for (const data of [[], 'text', null, 7, { name: { nested: true } }, { name: ['a', 'b'] }]) {
      expectError(await fromPage('POST', url, { data }), 400, 'invalid_request');
    }
    expectError(await fromPage('POST', url, { data: {}, resume_token: 'lfp_x' }), 400, 'invalid_request');
    expectError(await fromPage('POST', url, {}), 400, 'invalid_request');
    expectError(await raw('{"data":'), 400, 'invalid_json');
    expectError(await raw(JSON.stringify({ data: { name: 'x'.repeat(2_000_000) } })), 413, 'payload_too_large');
    expect(await t.count('drafts where form_id = ?', [form.id])).toBe(0);
  });

  it("refuses hostile bodies asking for a draft's link with the documented 4xx, sending nothing", async () => {
    const form = await draftsForm({ drafts: { enabled: true, email_link: true } });
    const started = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Ada' } });
    const url = `/v1/forms/${form.id}/drafts/${started.json.resume_token}/email`;
    const good = { email: 'ada@example.com', page_url: `${ORIGIN}/apply` };
    for (const body of [
      { ...good, email: 'ada\u0000@example.com' },
      { ...good, email: `${'a'.repeat(300)}@example.com` },
      { ...good, page_url: `${ORIGIN}/\u0007` },
      { ...good, page_url: `${ORIGIN}/${'x'.repeat(3000)}` },
      { ...good, page_url: 'javascript:alert(1)' },
      { ...good, extra: true },
      { email: good.email },
      { ...good, email: ['ada@example.com'] },
    ]) {
      expectError(await fromPage('POST', url, body), 400, 'invalid_request');
    }
    const raw = (text: string) => t.request('POST', url, { headers: { origin: ORIGIN, 'content-type': 'application/json' }, raw: text });
    expectError(await raw('{"email":'), 400, 'invalid_json');
    expectError(await raw(JSON.stringify({ ...good, page_url: `${ORIGIN}/${'x'.repeat(2_000_000)}` })), 413, 'payload_too_large');
    expect(await t.count('outbox_emails where kind = \'draft_link\' and "to" = ?', [good.email])).toBe(0);
  });

  it('answers one 404 for a token of another form, a forged one, a malformed one and an expired one', async () => {
    const form = await draftsForm();
    const other = await draftsForm();
    const started = await fromPage('POST', `/v1/forms/${other.id}/drafts`, { data: { name: 'Grace' } });
    const token: string = started.json.resume_token;
    for (const wrong of [token, `lfp_${'B'.repeat(43)}`, 'lfp_short', 'nope']) {
      const res = await fromPage('GET', `/v1/forms/${form.id}/drafts/${wrong}`);
      expectError(res, 404, 'draft_not_found');
      expectError(await fromPage('PUT', `/v1/forms/${form.id}/drafts/${wrong}`, { data: { name: 'Mallory' } }), 404, 'draft_not_found');
    }
    await t.sql('update drafts set expires_at = ? where id = ?', [new Date(Date.now() - 1000), started.json.id]);
    expectError(await fromPage('GET', `/v1/forms/${other.id}/drafts/${token}`), 404, 'draft_not_found');
    expectError(await fromPage('PUT', `/v1/forms/${other.id}/drafts/${token}`, { data: { name: 'Grace' } }), 404, 'draft_not_found');
    // The sweep deletes it.
    const swept = await t.server.services.db.fork().getRepository(Draft).sweepExpired(new Date());
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await t.count('drafts where id = ?', [started.json.id])).toBe(0);
  });

  it('is refused to another origin (no CORS), and a form that keeps none says so to its own pages', async () => {
    const form = await draftsForm();
    const elsewhere = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Eve' } }, 'https://elsewhere.example');
    expectError(elsewhere, 403, 'origin_not_allowed');
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    const off = await draftsForm({ drafts: { enabled: false } });
    const refused = await fromPage('POST', `/v1/forms/${off.id}/drafts`, { data: { name: 'Ada' } });
    expectError(refused, 403, 'drafts_disabled');
    expect(refused.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(await t.count('drafts where form_id in (?, ?)', [form.id, off.id])).toBe(0);
  });

  it('is preflighted for its own origins, with the methods of each path', async () => {
    const form = await draftsForm();
    const preflight = (path: string, origin: string) =>
      t.request('OPTIONS', path, { headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' } });
    const start = await preflight(`/v1/forms/${form.id}/drafts`, ORIGIN);
    expect(start.status).toBe(204);
    expect(start.headers['access-control-allow-methods']).toBe('POST');
    const one = await preflight(`/v1/forms/${form.id}/drafts/lfp_x`, ORIGIN);
    expect(one.status).toBe(204);
    expect(one.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(one.headers['access-control-allow-methods']).toBe('GET, PUT');
    expectError(await preflight(`/v1/forms/${form.id}/drafts`, 'https://elsewhere.example'), 403, 'origin_not_allowed');
  });

  it('becomes the submission that carries its token: gone with its commit', async () => {
    const form = await draftsForm();
    const started = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Ada', email: 'ada@example.com' } });
    const sent = await t.request('POST', `/v1/forms/${form.id}/submissions`, {
      headers: { origin: ORIGIN, 'lfk-draft': started.json.resume_token },
      body: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(sent.status, sent.body).toBe(201);
    expect(await t.count('drafts where id = ?', [started.json.id])).toBe(0);
    expect(await t.count('submissions where id = ?', [sent.json.id])).toBe(1);
    expectError(await fromPage('GET', `/v1/forms/${form.id}/drafts/${started.json.resume_token}`), 404, 'draft_not_found');
  });

  it("is listed for the form's members apart from its submissions, newest first", async () => {
    const form = await draftsForm();
    const first = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'First' } });
    const second = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Second' } });
    const list = await t.request('GET', `/v1/forms/${form.id}/drafts`, { token: owner.owner.token });
    expect(list.status, list.body).toBe(200);
    expect(list.json.data.map((d: { id: string }) => d.id)).toEqual([second.json.id, first.json.id]);
    expect(list.json.data[0]).not.toHaveProperty('resume_token');
    const submissions = await t.request('GET', `/v1/forms/${form.id}/submissions`, { token: owner.owner.token });
    expect(submissions.json.data).toEqual([]);
  });

  it("are counted on the workspace's forms list, and deleted by the form's members: their tokens find nothing after", async () => {
    const form = await draftsForm();
    const kept = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Kept' } });
    const gone = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Gone' } });
    const counted = async () => {
      const forms = await t.request('GET', `/v1/workspaces/${owner.owner.workspaceId}/forms?limit=100`, { token: owner.owner.token });
      return forms.json.data.find((f: { id: string }) => f.id === form.id).draft_count;
    };
    expect(await counted()).toBe(2);
    const other = await draftsForm();
    const path = `/v1/forms/${form.id}/drafts/delete`;
    // An id of another form's draft counts nothing there.
    const elsewhere = await fromPage('POST', `/v1/forms/${other.id}/drafts`, { data: { name: 'Elsewhere' } });
    const deleted = await t.request('POST', path, { token: owner.owner.token, body: { ids: [gone.json.id, elsewhere.json.id, 'drf_unknown'] } });
    expect(deleted.status, deleted.body).toBe(200);
    expect(deleted.json).toEqual({ deleted: 1 });
    expectError(await fromPage('GET', `/v1/forms/${form.id}/drafts/${gone.json.resume_token}`), 404, 'draft_not_found');
    expect((await fromPage('GET', `/v1/forms/${form.id}/drafts/${kept.json.resume_token}`)).status).toBe(200);
    expect((await fromPage('GET', `/v1/forms/${other.id}/drafts/${elsewhere.json.resume_token}`)).status).toBe(200);
    expect(await counted()).toBe(1);
    // A key is no member's session; more than 100 ids, or none, is refused whole.
    expectError(await t.request('POST', path, { token: owner.key, body: { ids: [kept.json.id] } }), 403, 'session_required');
    expectError(await t.request('POST', path, { token: owner.owner.token, body: { ids: Array(101).fill(kept.json.id) } }), 400, 'invalid_request');
    expectError(await t.request('POST', path, { token: owner.owner.token, body: { ids: [] } }), 400, 'invalid_request');
    expect(await t.count('drafts where form_id = ?', [form.id])).toBe(1);
  });

  it('emails a link to finish later where the form offers it: the page asking, the token after #, sealed in the outbox', async () => {
    const form = await draftsForm({ drafts: { enabled: true, email_link: true } });
    const started = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Ada' } });
    const token: string = started.json.resume_token;
    const to = `later-${sha256Hex(token).slice(0, 8)}@example.com`;
    const path = `/v1/forms/${form.id}/drafts/${token}/email`;
    const sent = await fromPage('POST', path, { email: to, page_url: `${ORIGIN}/apply?step=2#top` });
    expect(sent.status, sent.body).toBe(202);
    expect(sent.json).toEqual({ expires_at: started.json.expires_at });
    expect(sent.headers['access-control-allow-origin']).toBe(ORIGIN);
    const email = await until('the draft link', () => emailsSentTo(t, to, 'draft_link')[0]);
    expect(email.subject).toBe('Finish your answers to "Application"');
    expect(email.text).toContain(`${ORIGIN}/apply?step=2#lfk-draft=${form.id}:${token}`);
    // The token is in the outbox only sealed; nowhere in the logs but the email printed for this test.
    const [row] = await t.sql<{ stored: string }>('select row_to_json(o)::text as stored from outbox_emails o where kind = \'draft_link\' and "to" = ?', [to]);
    expect(row!.stored).not.toContain(token.slice(4));

    // Another origin's page, a forged token, a form that does not offer it: refused, nothing sent.
    const elsewhere = await fromPage('POST', path, { email: to, page_url: 'https://evil.example/apply' });
    expectError(elsewhere, 400, 'invalid_request');
    expect(elsewhere.json.error.details).toEqual([{ path: 'page_url', message: "Must be a page of the request's origin." }]);
    expectError(await fromPage('POST', path, { email: 'not an address', page_url: `${ORIGIN}/apply` }), 400, 'invalid_request');
    expectError(
      await fromPage('POST', `/v1/forms/${form.id}/drafts/lfp_${'A'.repeat(43)}/email`, { email: to, page_url: `${ORIGIN}/` }),
      404,
      'draft_not_found',
    );
    const quiet = await draftsForm();
    const quietDraft = await fromPage('POST', `/v1/forms/${quiet.id}/drafts`, { data: { name: 'Ada' } });
    const refused = await fromPage('POST', `/v1/forms/${quiet.id}/drafts/${quietDraft.json.resume_token}/email`, { email: to, page_url: `${ORIGIN}/` });
    expectError(refused, 403, 'drafts_disabled');
    expect(await t.count('outbox_emails where kind = \'draft_link\' and "to" = ?', [to])).toBe(1);
  });

  it('a draft link goes within the auto-replies’ limits: an address that stopped the workspace’s mail gets none, and the page cannot tell', async () => {
    const form = await draftsForm({ drafts: { enabled: true, email_link: true } });
    const started = await fromPage('POST', `/v1/forms/${form.id}/drafts`, { data: { name: 'Grace' } });
    const to = `stopped-${sha256Hex(started.json.resume_token).slice(0, 8)}@example.com`;
    const path = `/v1/forms/${form.id}/drafts/${started.json.resume_token}/email`;
    expect((await fromPage('POST', path, { email: to, page_url: `${ORIGIN}/apply` })).status).toBe(202);
    const email = await until('the draft link', () => emailsSentTo(t, to, 'draft_link')[0]);
    const stop = /http:\/\/[^/\s]+(\/v1\/auto-reply-stops\/\S+)/.exec(email.text)![1]!;
    const stopped = await t.request('POST', stop, { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(stopped.status).toBe(200);
    const again = await fromPage('POST', path, { email: to, page_url: `${ORIGIN}/apply` });
    expect(again.status).toBe(202);
    expect(await t.count('outbox_emails where kind = \'draft_link\' and "to" = ?', [to])).toBe(1);
  });

  it('shows in the form and its public description, with the fields a page must not save', async () => {
    const form = await draftsForm({ drafts: { enabled: true, ttl_days: 30 } });
    expect((await t.request('GET', `/v1/forms/${form.id}`, { token: owner.key })).json.drafts).toEqual({ enabled: true, ttl_days: 30, email_link: false });
    const described = (await t.request('GET', `/v1/forms/${form.id}/public`)).json;
    expect(described.drafts).toBe(true);
    expect(described.fields.find((f: { name: string }) => f.name === 'card')).toMatchObject({ private: true });
    expectError(
      await t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.key, body: { drafts: { enabled: true, ttl_days: 31 } } }),
      400,
      'invalid_request',
    );
  });
});

describe('draft saves from one address', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ LFK_RATE_LIMIT_DRAFT_SAVES: '3/1m' });
  });
  afterAll(() => limited?.close());

  it('are limited per form and address: past the limit, 429 with Retry-After, and nothing more is kept', async () => {
    const { key } = await limited.signupWithKey();
    const form = await createForm(limited, key, { name: 'Limited', schema: FIELDS, allowed_origins: [ORIGIN], drafts: { enabled: true } });
    const save = () => limited.request('POST', `/v1/forms/${form.id}/drafts`, { headers: { origin: ORIGIN }, body: { data: { name: 'Ada' } } });
    for (let i = 0; i < 3; i++) expect((await save()).status).toBe(201);
    const over = await save();
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await limited.count('drafts where form_id = ?', [form.id])).toBe(3);
  });
});
