import { generateApiKey } from '@lfk/api';
import { newId } from '@lfk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_ACCEPT,
  createContactForm,
  expectError,
  FORM_URLENCODED,
  ORIGIN,
  type Res,
  startTestServer,
  type TestServer,
} from '@lfk/testing';

/** End to end: POST and GET /v1/forms/{form_id}/submissions, in browser and api_key mode. */

const LOCAL_ORIGIN = 'http://localhost:3000';

const contactSchema = [
  { name: 'name', type: 'text', required: true },
  { name: 'email', type: 'email', required: true },
  { name: 'age', type: 'number' },
  { name: 'agree', type: 'checkbox' },
];

type User = { token: string; userId: string; workspaceId: string; email: string };

let t: TestServer;
let owner: User;
let member: User;
let outsider: User;
let ownerKey: { key: string; id: string };
let outsiderKey: { key: string; id: string };

beforeAll(async () => {
  t = await startTestServer();
  owner = await t.signup();
  member = await t.signup();
  outsider = await t.signup();
  await t.addMember(owner.token, owner.workspaceId, member.email, 'member');
  ownerKey = await t.createKey(owner.token, owner.workspaceId, 'server');
  outsiderKey = await t.createKey(outsider.token, outsider.workspaceId, 'elsewhere');
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers

/** A claimed form in the owner's workspace (made with the owner's session). */
function createForm(overrides: Record<string, unknown> = {}, server: TestServer = t, who: User = owner) {
  return createContactForm(server, who, { schema: contactSchema, allowed_origins: [ORIGIN, LOCAL_ORIGIN], ...overrides });
}

interface SubmitOptions {
  origin?: string;
  key?: string;
  headers?: Record<string, string>;
  /** Sent as is (with `contentType`), instead of `body` as JSON. */
  raw?: string | Buffer;
  contentType?: string;
  server?: TestServer;
}

function submit(formId: string, body: unknown, options: SubmitOptions = {}): Promise<Res> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.origin !== undefined) headers.origin = options.origin;
  if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  const server = options.server ?? t;
  return server.request('POST', `/v1/forms/${formId}/submissions`, {
    ...(options.key ? { token: options.key } : {}),
    ...(options.raw !== undefined ? { raw: options.raw } : { body }),
    headers,
  });
}

/** A form post as a browser sends it: urlencoded, with an Origin. */
function postForm(formId: string, fields: string, options: SubmitOptions = {}): Promise<Res> {
  return submit(formId, undefined, { origin: ORIGIN, ...options, raw: fields, contentType: FORM_URLENCODED });
}

interface StoredRow {
  id: string;
  data: Record<string, unknown>;
  source: string;
  api_key_id: string | null;
}

/** The form's submissions as stored, oldest first. */
async function storedRows(formId: string, server: TestServer = t): Promise<StoredRow[]> {
  const rows = await server.sql<{ id: string; data: unknown; source: string; api_key_id: string | null }>(
    'select id, data, source, api_key_id from submissions where form_id = ? order by id',
    [formId],
  );
  return rows.map((row) => ({
    ...row,
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
  }));
}

async function countRows(formId: string, server: TestServer = t): Promise<number> {
  const rows = await server.sql<{ n: number }>('select count(*)::int as n from submissions where form_id = ?', [formId]);
  return rows[0]!.n;
}

function corsHeaderNames(res: Res): string[] {
  return Object.keys(res.headers).filter((name) => name.toLowerCase().startsWith('access-control-'));
}

function headerList(res: Res, name: string): string[] {
  return String(res.headers[name] ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
}

function expectCreated(res: Res, formId: string) {
  expect(res.status, res.body).toBe(201);
  expect(Object.keys(res.json).sort()).toEqual(['created_at', 'form_id', 'id']);
  expect(res.json.id).toMatch(/^sub_/);
  expect(res.json.form_id).toBe(formId);
  expect(new Date(res.json.created_at).toISOString()).toBe(res.json.created_at);
}

function withoutRequestId(res: Res) {
  const { request_id: _ignored, ...rest } = res.json.error;
  return rest;
}

async function listAll(formId: string, token: string, limit?: number) {
  const seen: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const params = new URLSearchParams();
    if (limit !== undefined) params.set('limit', String(limit));
    if (cursor) params.set('cursor', cursor);
    const query = params.toString();
    const res = await t.request('GET', `/v1/forms/${formId}/submissions${query ? `?${query}` : ''}`, { token });
    expect(res.status, res.body).toBe(200);
    if (limit !== undefined) expect(res.json.data.length).toBeLessThanOrEqual(limit);
    seen.push(...res.json.data);
    cursor = res.json.next_cursor;
    pages++;
    if (pages > 50) throw new Error('pagination does not end');
  } while (cursor);
  return { items: seen, pages };
}

// ---------------------------------------------------------------------------------------------

describe('browser-mode submissions and the Origin check', () => {
  it('accepts JSON and urlencoded bodies from an allowed origin and stores what was sent', async () => {
    const form = await createForm();
    const fromJson = await submit(
      form.id,
      { name: 'Ada Lovelace', email: 'ada@example.com', age: 36, agree: true },
      { origin: ORIGIN },
    );
    expectCreated(fromJson, form.id);

    const fromForm = await postForm(form.id, 'name=Grace+Hopper&email=grace%40example.com&age=85&agree=on', {
      origin: LOCAL_ORIGIN,
    });
    expectCreated(fromForm, form.id);
    expect(fromForm.headers['content-type']).toMatch(/^application\/json/);

    const list = await t.request('GET', `/v1/forms/${form.id}/submissions`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json).toEqual({
      data: [
        {
          id: fromForm.json.id,
          form_id: form.id,
          data: { name: 'Grace Hopper', email: 'grace@example.com', age: 85, agree: true },
          source: 'browser',
          created_at: fromForm.json.created_at,
        },
        {
          id: fromJson.json.id,
          form_id: form.id,
          data: { name: 'Ada Lovelace', email: 'ada@example.com', age: 36, agree: true },
          source: 'browser',
          created_at: fromJson.json.created_at,
        },
      ],
      next_cursor: null,
    });

    const rows = await storedRows(form.id);
    expect(rows).toEqual([
      {
        id: fromJson.json.id,
        data: { name: 'Ada Lovelace', email: 'ada@example.com', age: 36, agree: true },
        source: 'browser',
        api_key_id: null,
      },
      {
        id: fromForm.json.id,
        data: { name: 'Grace Hopper', email: 'grace@example.com', age: 85, agree: true },
        source: 'browser',
        api_key_id: null,
      },
    ]);
  });

  it('refuses origins not exactly on the list (absent, null, other port/scheme, trailing slash) and stores nothing', async () => {
    const form = await createForm();
    const refused: (string | undefined)[] = [
      'https://evil.example',
      undefined,
      'null',
      'https://shop.example:8443',
      'http://shop.example',
      'https://shop.example/',
      'http://localhost:3001',
      'http://localhost',
      'https://localhost:3000',
      'https://sub.shop.example',
    ];
    const valid = { name: 'Mallory', email: 'mallory@example.com' };
    for (const origin of refused) {
      const label = origin ?? '(no Origin)';
      const json = await submit(form.id, valid, origin === undefined ? {} : { origin });
      expectError(json, 403, 'origin_not_allowed');
      expect(corsHeaderNames(json), label).toEqual([]);

      const urlencoded = await submit(form.id, undefined, {
        ...(origin === undefined ? {} : { origin }),
        raw: 'name=Mallory&email=mallory%40example.com',
        contentType: FORM_URLENCODED,
      });
      expectError(urlencoded, 403, 'origin_not_allowed');
    }
    // A refused origin is refused before validation: an invalid body from it is a 403 too.
    expectError(await submit(form.id, { nope: 1 }, { origin: 'https://evil.example' }), 403, 'origin_not_allowed');
    expect(await countRows(form.id)).toBe(0);
  });

  it('a form with no allowed origins takes no browser submissions at all', async () => {
    const form = await createForm({ allowed_origins: [] });
    expectError(await submit(form.id, { name: 'A', email: 'a@example.com' }, { origin: ORIGIN }), 403, 'origin_not_allowed');
    expectError(await submit(form.id, { name: 'A', email: 'a@example.com' }), 403, 'origin_not_allowed');
    expect(await countRows(form.id)).toBe(0);
  });
});

describe('CORS', () => {
  const preflightHeaders = (origin: string) => ({
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  });

  it('answers a preflight from an allowed origin with 204 and the CORS grant', async () => {
    const form = await createForm();
    for (const origin of [ORIGIN, LOCAL_ORIGIN]) {
      const res = await t.request('OPTIONS', `/v1/forms/${form.id}/submissions`, { headers: preflightHeaders(origin) });
      expect(res.status, res.body).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(headerList(res, 'access-control-allow-methods')).toContain('post');
      expect(headerList(res, 'access-control-allow-headers')).toContain('content-type');
      // Never a credentialed grant: a key is for servers, never browsers.
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('refuses a preflight from another origin (or none) with 403 and no CORS headers', async () => {
    const form = await createForm();
    for (const origin of ['https://evil.example', 'null', 'https://shop.example:8443', 'https://shop.example/']) {
      const res = await t.request('OPTIONS', `/v1/forms/${form.id}/submissions`, { headers: preflightHeaders(origin) });
      expectError(res, 403, 'origin_not_allowed');
      expect(corsHeaderNames(res), origin).toEqual([]);
    }
    const noOrigin = await t.request('OPTIONS', `/v1/forms/${form.id}/submissions`, {
      headers: { 'access-control-request-method': 'POST' },
    });
    expectError(noOrigin, 403, 'origin_not_allowed');
    expect(corsHeaderNames(noOrigin)).toEqual([]);
  });

  it('refuses preflights for api_key-mode forms, and answers 404 for unknown forms', async () => {
    const keyed = await t.request('POST', '/v1/forms', {
      token: ownerKey.key,
      body: { name: 'Server only', schema: contactSchema, submission_mode: 'api_key', allowed_origins: [ORIGIN] },
    });
    expect(keyed.status, keyed.body).toBe(201);
    expect(keyed.json.submission_mode).toBe('api_key');
    const res = await t.request('OPTIONS', `/v1/forms/${keyed.json.id}/submissions`, { headers: preflightHeaders(ORIGIN) });
    expectError(res, 403, 'origin_not_allowed');
    expect(corsHeaderNames(res)).toEqual([]);

    for (const formId of [newId('form'), 'nope']) {
      const unknown = await t.request('OPTIONS', `/v1/forms/${formId}/submissions`, { headers: preflightHeaders(ORIGIN) });
      expectError(unknown, 404, 'form_not_found');
      expect(corsHeaderNames(unknown)).toEqual([]);
    }
  });

  it('actual POSTs from an allowed origin carry allow-origin and Vary: Origin, on success and on a 422', async () => {
    const form = await createForm();
    const ok = await submit(form.id, { name: 'Ada', email: 'ada@example.com' }, { origin: ORIGIN });
    expectCreated(ok, form.id);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(headerList(ok, 'vary')).toContain('origin');

    const bad = await submit(form.id, { name: 'Ada', email: 'not-an-email' }, { origin: LOCAL_ORIGIN });
    expectError(bad, 422, 'validation_failed');
    expect(bad.headers['access-control-allow-origin']).toBe(LOCAL_ORIGIN);
    expect(headerList(bad, 'vary')).toContain('origin');

    const other = await submit(form.id, { name: 'Eve', email: 'eve@example.com' }, { origin: 'https://evil.example' });
    expectError(other, 403, 'origin_not_allowed');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(corsHeaderNames(other)).toEqual([]);
    expect(await countRows(form.id)).toBe(1);
  });

  it('a key-authenticated POST carries no CORS headers, even with an allowed Origin', async () => {
    const form = await createForm();
    const res = await submit(form.id, { name: 'Bot', email: 'bot@example.com' }, { origin: ORIGIN, key: ownerKey.key });
    expectCreated(res, form.id);
    expect(corsHeaderNames(res)).toEqual([]);
    const withoutOrigin = await submit(form.id, { name: 'Bot', email: 'bot@example.com' }, { key: ownerKey.key });
    expectCreated(withoutOrigin, form.id);
    expect(corsHeaderNames(withoutOrigin)).toEqual([]);
    const rows = await storedRows(form.id);
    expect(rows.map((r) => [r.source, r.api_key_id])).toEqual([
      ['api_key', ownerKey.id],
      ['api_key', ownerKey.id],
    ]);
  });
});

describe('HTML form posts', () => {
  it('redirects with 303 to redirect_url when the form has one', async () => {
    const form = await createForm({ redirect_url: 'https://shop.example/thanks?from=lfk' });
    expect(form.redirect_url).toBe('https://shop.example/thanks?from=lfk');
    const res = await postForm(form.id, 'name=Ada&email=ada%40example.com&agree=on', {
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(res.status, res.body).toBe(303);
    expect(res.headers.location).toBe('https://shop.example/thanks?from=lfk');
    const rows = await storedRows(form.id);
    expect(rows.map((r) => r.data)).toEqual([{ name: 'Ada', email: 'ada@example.com', agree: true }]);
  });

  it('answers a thank-you page when there is no redirect_url', async () => {
    const form = await createForm();
    const res = await postForm(form.id, 'name=Ada&email=ada%40example.com', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
    expect(res.body).toContain('Thank you');
    expect(res.headers.location).toBeUndefined();
    expect(await storedRows(form.id)).toMatchObject([{ data: { name: 'Ada', email: 'ada@example.com', agree: false } }]);
  });

  it('answers a validation error with a 422 HTML page listing the bad fields', async () => {
    const form = await createForm({ redirect_url: 'https://shop.example/thanks' });
    const res = await postForm(form.id, 'email=not-an-email&age=lots', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status, res.body).toBe(422);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toMatch(/<li>[^<]*email[^<]*<\/li>/);
    expect(res.body).toMatch(/<li>[^<]*name[^<]*Is required\.<\/li>/);
    expect(res.body).toMatch(/<li>[^<]*age[^<]*<\/li>/);
    expect(await countRows(form.id)).toBe(0);
  });

  it('answers a refused origin with a 403 HTML page', async () => {
    const form = await createForm();
    const res = await postForm(form.id, 'name=Ada&email=ada%40example.com', {
      origin: 'https://evil.example',
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(res.status, res.body).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(corsHeaderNames(res)).toEqual([]);
    expect(await countRows(form.id)).toBe(0);
  });

  it('a field name repeated in a urlencoded body is a 422 for that field', async () => {
    const form = await createForm();
    const res = await postForm(form.id, 'name=Ada&name=Grace&email=ada%40example.com');
    expectError(res, 422, 'validation_failed');
    expect(res.json.error.details).toEqual([{ path: 'name', message: 'Must be a single value.' }]);
    expect(await countRows(form.id)).toBe(0);
  });
});

describe('api_key-mode forms', () => {
  let formId: string;
  beforeAll(async () => {
    const res = await t.request('POST', '/v1/forms', {
      token: ownerKey.key,
      body: { name: 'Server only', schema: contactSchema, submission_mode: 'api_key' },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json).toMatchObject({ state: 'claimed', submission_mode: 'api_key', workspace_id: owner.workspaceId });
    formId = res.json.id;
  });
  const valid = { name: 'Ada', email: 'ada@example.com' };

  it('without a key: 401 api_key_required, also with a session bearer or a browser Origin', async () => {
    expectError(await submit(formId, valid), 401, 'api_key_required');
    expectError(await submit(formId, valid, { origin: ORIGIN }), 401, 'api_key_required');
    expectError(await submit(formId, valid, { key: owner.token }), 401, 'api_key_required');
    expectError(await submit(formId, valid, { key: member.token }), 401, 'api_key_required');
    expect(await countRows(formId)).toBe(0);
  });

  it('malformed, unknown and revoked keys get the same 401 invalid_api_key', async () => {
    const revoked = await t.createKey(owner.token, owner.workspaceId, 'revoked');
    const revoke = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${revoked.id}`, {
      token: owner.token,
    });
    expect(revoke.status).toBe(204);

    const malformed = await submit(formId, valid, { key: 'lfk_not-a-real-key' });
    const unknown = await submit(formId, valid, { key: generateApiKey().key });
    const gone = await submit(formId, valid, { key: revoked.key });
    for (const res of [malformed, unknown, gone]) expectError(res, 401, 'invalid_api_key');
    expect(withoutRequestId(unknown)).toEqual(withoutRequestId(malformed));
    expect(withoutRequestId(gone)).toEqual(withoutRequestId(malformed));
    expect(await countRows(formId)).toBe(0);
  });

  it("another workspace's key is 403 forbidden", async () => {
    expectError(await submit(formId, valid, { key: outsiderKey.key }), 403, 'forbidden');
    expect(await countRows(formId)).toBe(0);
  });

  it('the right key submits: 201, listed with source api_key', async () => {
    const res = await submit(formId, valid, { key: ownerKey.key });
    expectCreated(res, formId);
    expect(corsHeaderNames(res)).toEqual([]);
    const list = await t.request('GET', `/v1/forms/${formId}/submissions`, { token: owner.token });
    expect(list.status).toBe(200);
    // The optional checkbox left out is stored unticked.
    const stored = { ...valid, agree: false };
    expect(list.json.data).toEqual([
      { id: res.json.id, form_id: formId, data: stored, source: 'api_key', created_at: res.json.created_at },
    ]);
    expect(await storedRows(formId)).toEqual([{ id: res.json.id, data: stored, source: 'api_key', api_key_id: ownerKey.id }]);
  });

  it('a key on an unclaimed (anonymous) form is 404 form_not_found', async () => {
    const anon = await t.request('POST', '/v1/forms', {
      body: { name: 'Anon', schema: contactSchema, notify_email: 'anon@example.com', allowed_origins: [ORIGIN] },
    });
    expect(anon.status, anon.body).toBe(201);
    expect(anon.json.state).toBe('unclaimed');
    for (const key of [ownerKey.key, outsiderKey.key]) {
      expectError(await submit(anon.json.id, valid, { key }), 404, 'form_not_found');
      expectError(await submit(anon.json.id, valid, { key, origin: ORIGIN }), 404, 'form_not_found');
    }
    expect(await countRows(anon.json.id)).toBe(0);
    // The browser path still works for it.
    expectCreated(await submit(anon.json.id, valid, { origin: ORIGIN }), anon.json.id);
  });

  it('unknown and wrong-shaped form ids are 404 form_not_found', async () => {
    for (const id of [newId('form'), 'nope', 'form_123', newId('sub'), 'x'.repeat(300), encodeURIComponent('form_%00')]) {
      expectError(await submit(id, valid, { origin: ORIGIN }), 404, 'form_not_found');
      expectError(await submit(id, valid, { key: ownerKey.key }), 404, 'form_not_found');
      expectError(await submit(id, valid), 404, 'form_not_found');
      expectError(await t.request('GET', `/v1/forms/${id}/submissions`, { token: owner.token }), 404, 'form_not_found');
    }
  });
});

describe('validation', () => {
  const everyType = [
    { name: 'name', type: 'text', required: true },
    { name: 'bio', type: 'textarea' },
    { name: 'email', type: 'email', required: true },
    { name: 'age', type: 'number' },
    { name: 'site', type: 'url' },
    { name: 'phone', type: 'tel' },
    { name: 'born', type: 'date' },
    { name: 'agree', type: 'checkbox', required: true },
    { name: 'news', type: 'checkbox' },
    { name: 'plan', type: 'select', options: ['free', 'pro'] },
  ];

  it('answers 422 validation_failed with one details entry per bad field', async () => {
    const form = await createForm({ schema: everyType });
    const res = await submit(
      form.id,
      {
        bio: { nested: 'object' },
        email: 'not-an-email',
        age: 'twelve',
        site: 'ftp://files.example',
        phone: '12',
        born: '2026-02-30',
        agree: false,
        plan: 'enterprise',
        extra: 'who am I',
      },
      { origin: ORIGIN },
    );
    expectError(res, 422, 'validation_failed');
    const details: { path: string; message: string }[] = res.json.error.details;
    expect(details.map((d) => d.path).sort()).toEqual(
      ['name', 'bio', 'email', 'age', 'site', 'phone', 'born', 'agree', 'plan', 'extra'].sort(),
    );
    const message = (path: string) => details.find((d) => d.path === path)!.message;
    expect(message('name')).toBe('Is required.');
    expect(message('bio')).toBe('Must be a single value.');
    for (const d of details) expect(d.message.length, d.path).toBeGreaterThan(0);
    expect(await countRows(form.id)).toBe(0);
  });

  it('flags each kind of bad value on its own', async () => {
    const form = await createForm({ schema: everyType });
    const base = { name: 'Ada', email: 'ada@example.com', agree: true };
    const cases: [string, Record<string, unknown>][] = [
      ['name', { name: '   ' }],
      ['name', { name: null }],
      ['email', { email: 'ada@' }],
      ['age', { age: '1,5' }],
      ['age', { age: '0x10' }],
      ['age', { age: true }],
      ['site', { site: 'javascript:alert(1)' }],
      ['site', { site: 'not a url' }],
      ['phone', { phone: 'call me' }],
      ['born', { born: '2026-02-30' }],
      ['born', { born: '2025-13-01' }],
      ['born', { born: '10/12/1815' }],
      ['agree', { agree: 'off' }],
      ['agree', { agree: 'maybe' }],
      ['plan', { plan: 'Pro' }],
      ['plan', { plan: ['pro'] }],
      ['name', { name: 'nul\u0000byte' }],
      ['name', { name: 'lone \ud800 surrogate' }],
      ['name', { name: 'x'.repeat(10_001) }],
      ['surname', { surname: 'Lovelace' }],
    ];
    const withoutAgree = await submit(form.id, { name: 'Ada', email: 'ada@example.com' }, { origin: ORIGIN });
    expectError(withoutAgree, 422, 'validation_failed');
    expect(withoutAgree.json.error.details.map((d: { path: string }) => d.path)).toEqual(['agree']);
    for (const [path, override] of cases) {
      const res = await submit(form.id, { ...base, ...override }, { origin: ORIGIN });
      expectError(res, 422, 'validation_failed');
      expect(res.json.error.details.map((d: { path: string }) => d.path), JSON.stringify(override).slice(0, 80)).toEqual([
        path,
      ]);
    }
    expect(await countRows(form.id)).toBe(0);
  });

  it('stores a valid submission with every field type normalised', async () => {
    const form = await createForm({ schema: everyType });
    const fromJson = await submit(
      form.id,
      {
        name: '  Ada  ',
        bio: 'line one\nline two  ',
        email: '  ada@example.com ',
        age: '42.5',
        site: ' https://ada.example/notes ',
        phone: ' +44 (20) 7946-0958 ',
        born: '1815-12-10',
        agree: 'on',
        plan: 'pro',
      },
      { origin: ORIGIN },
    );
    expectCreated(fromJson, form.id);

    const typed = await submit(
      form.id,
      { name: 'Grace', email: 'grace@example.com', age: -7, agree: true, news: 'yes', site: '', phone: '   ', born: null },
      { origin: ORIGIN },
    );
    expectCreated(typed, form.id);

    const fromForm = await postForm(form.id, 'name=Linus&email=linus%40example.com&age=1e3&agree=1&news=off&plan=free&bio=');
    expectCreated(fromForm, form.id);

    const expected = [
      {
        name: '  Ada  ',
        bio: 'line one\nline two  ',
        email: 'ada@example.com',
        age: 42.5,
        site: 'https://ada.example/notes',
        phone: '+44 (20) 7946-0958',
        born: '1815-12-10',
        agree: true,
        news: false,
        plan: 'pro',
      },
      { name: 'Grace', email: 'grace@example.com', age: -7, agree: true, news: true },
      { name: 'Linus', email: 'linus@example.com', age: 1000, agree: true, news: false, plan: 'free' },
    ];
    const rows = await storedRows(form.id);
    expect(rows.map((r) => r.id)).toEqual([fromJson.json.id, typed.json.id, fromForm.json.id]);
    expect(rows.map((r) => r.data)).toEqual(expected);

    const list = await t.request('GET', `/v1/forms/${form.id}/submissions`, { token: member.token });
    expect(list.status).toBe(200);
    expect(list.json.data.map((s: { data: unknown }) => s.data)).toEqual([...expected].reverse());
    expect(typeof list.json.data[2].data.age).toBe('number');
    expect(typeof list.json.data[2].data.agree).toBe('boolean');
  });
});

describe('body limits and content types', () => {
  const noteSchema = [{ name: 'msg', type: 'textarea', required: true }];
  /** A JSON body of exactly `bytes` bytes: {"msg":"aaa…"}. */
  const jsonOfSize = (bytes: number) => `{"msg":"${'a'.repeat(bytes - 10)}"}`;

  it('takes a body of 64 KiB and refuses one byte more with 413 payload_too_large', async () => {
    const form = await createForm({ schema: noteSchema });
    const atLimit = jsonOfSize(64 * 1024);
    expect(Buffer.byteLength(atLimit)).toBe(65_536);
    expectCreated(await submit(form.id, undefined, { origin: ORIGIN, raw: atLimit }), form.id);

    const justUnder = jsonOfSize(64 * 1024 - 100);
    expectCreated(await submit(form.id, undefined, { origin: ORIGIN, raw: justUnder }), form.id);

    const over = jsonOfSize(64 * 1024 + 1);
    expectError(await submit(form.id, undefined, { origin: ORIGIN, raw: over }), 413, 'payload_too_large');
    const wayOver = jsonOfSize(200 * 1024);
    expectError(await submit(form.id, undefined, { origin: ORIGIN, raw: wayOver }), 413, 'payload_too_large');
    const formOver = `msg=${'b'.repeat(64 * 1024)}`;
    expectError(await postForm(form.id, formOver), 413, 'payload_too_large');

    const rows = await storedRows(form.id);
    expect(rows.map((r) => (r.data.msg as string).length)).toEqual([65_526, 65_426]);
  });

  it('refuses multipart/form-data and text/plain with 415', async () => {
    const form = await createForm({ schema: noteSchema });
    const multipart = await submit(form.id, undefined, {
      origin: ORIGIN,
      raw: '--xyz\r\nContent-Disposition: form-data; name="msg"\r\n\r\nhello\r\n--xyz--\r\n',
      contentType: 'multipart/form-data; boundary=xyz',
    });
    expectError(multipart, 415, 'unsupported_media_type');
    const plain = await submit(form.id, undefined, { origin: ORIGIN, raw: 'msg=hello', contentType: 'text/plain' });
    expectError(plain, 415, 'unsupported_media_type');
    expect(await countRows(form.id)).toBe(0);
  });

  it('refuses a JSON body that is not an object with 400 invalid_request', async () => {
    const form = await createForm({ schema: noteSchema });
    expectError(await submit(form.id, [{ msg: 'hello' }], { origin: ORIGIN }), 400, 'invalid_request');
    expectError(await submit(form.id, 'hello', { origin: ORIGIN }), 400, 'invalid_request');
    expectError(await submit(form.id, undefined, { origin: ORIGIN, raw: '{"msg":' }), 400, 'invalid_json');
    expect(await countRows(form.id)).toBe(0);
  });
});

describe('Idempotency-Key on submissions', () => {
  const body = { name: 'Ada', email: 'ada@example.com' };

  it('the same key and body replays the first answer, with one row', async () => {
    const form = await createForm();
    const first = await submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': 'order-1' } });
    expectCreated(first, form.id);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': 'order-1' } });
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countRows(form.id)).toBe(1);

    const other = await submit(
      form.id,
      { name: 'Grace', email: 'grace@example.com' },
      { origin: ORIGIN, headers: { 'idempotency-key': 'order-1' } },
    );
    expectError(other, 409, 'idempotency_key_reused');
    expect(await countRows(form.id)).toBe(1);

    // Another key is another submission.
    const second = await submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': 'order-2' } });
    expectCreated(second, form.id);
    expect(second.json.id).not.toBe(first.json.id);
    expect(await countRows(form.id)).toBe(2);
  });

  it('10 concurrent requests with one key and body make exactly one submission', async () => {
    const form = await createForm();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': 'burst' } })),
    );
    for (const res of results) expect(res.status, res.body).toBe(201);
    expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await countRows(form.id)).toBe(1);
    expect((await storedRows(form.id))[0]!.id).toBe(results[0]!.json.id);
  });

  it('the same key from two different callers (two keys of one workspace) makes two submissions', async () => {
    const form = await createForm();
    const second = await t.createKey(owner.token, owner.workspaceId, 'second');
    const a = await submit(form.id, body, { key: ownerKey.key, headers: { 'idempotency-key': 'shared' } });
    const b = await submit(form.id, body, { key: second.key, headers: { 'idempotency-key': 'shared' } });
    expectCreated(a, form.id);
    expectCreated(b, form.id);
    expect(b.json.id).not.toBe(a.json.id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    const rows = await storedRows(form.id);
    expect(rows.map((r) => r.api_key_id)).toEqual([ownerKey.id, second.id]);
  });

  it('a malformed Idempotency-Key is a 400 and stores nothing', async () => {
    const form = await createForm();
    for (const key of ['', 'has space', 'x'.repeat(256), 'é']) {
      const res = await submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': key } });
      expectError(res, 400, 'invalid_request');
    }
    expect(await countRows(form.id)).toBe(0);
  });
});

describe('listing submissions', () => {
  let formId: string;
  let createdIds: string[];
  beforeAll(async () => {
    formId = (await createForm()).id;
    createdIds = [];
    for (let i = 0; i < 5; i++) {
      const res = await submit(formId, { name: `Person ${i}`, email: `p${i}@example.com`, age: i }, { origin: ORIGIN });
      expectCreated(res, formId);
      createdIds.push(res.json.id);
    }
  });

  it('owner and member sessions see newest first, and ?limit=2 pages through all without duplicates', async () => {
    const newestFirst = [...createdIds].reverse();
    for (const who of [owner, member]) {
      const all = await t.request('GET', `/v1/forms/${formId}/submissions`, { token: who.token });
      expect(all.status).toBe(200);
      expect(all.json.data.map((s: { id: string }) => s.id)).toEqual(newestFirst);
      expect(all.json.data[0]).toMatchObject({ data: { name: 'Person 4', email: 'p4@example.com', age: 4, agree: false } });
      expect(all.json.next_cursor).toBeNull();

      const first = await t.request('GET', `/v1/forms/${formId}/submissions?limit=2`, { token: who.token });
      expect(first.json.data.map((s: { id: string }) => s.id)).toEqual(newestFirst.slice(0, 2));
      expect(first.json.next_cursor).toEqual(expect.any(String));

      const { items, pages } = await listAll(formId, who.token, 2);
      expect(pages).toBe(3);
      const ids = items.map((s: { id: string }) => s.id);
      expect(ids).toEqual(newestFirst);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('an API key is 403 session_required, an outsider 404 form_not_found, no credentials 401', async () => {
    const url = `/v1/forms/${formId}/submissions`;
    expectError(await t.request('GET', url, { token: ownerKey.key }), 403, 'session_required');
    expectError(await t.request('GET', url, { token: outsider.token }), 404, 'form_not_found');
    expectError(await t.request('GET', url, { token: outsiderKey.key }), 403, 'session_required');
    const anonymous = await t.request('GET', url);
    expectError(anonymous, 401, 'unauthenticated');
    expect(anonymous.body).not.toContain('Person');
  });

  it('rejects bad limits and cursors with 400', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=nope']) {
      expectError(
        await t.request('GET', `/v1/forms/${formId}/submissions?${query}`, { token: owner.token }),
        400,
        'invalid_request',
      );
    }
  });
});

describe('per-form browser submission rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ LFK_RATE_LIMIT_BROWSER_SUBMISSIONS: '3/1m' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('the 4th browser submission to a form is 429; other forms and key submissions are unaffected', async () => {
    const user = await limited.signup();
    const key = await limited.createKey(user.token, user.workspaceId);
    const a = await createForm({}, limited, user);
    const b = await createForm({}, limited, user);
    const body = { name: 'Ada', email: 'ada@example.com' };

    // Key submissions first: they must not use up the browser allowance.
    for (let i = 0; i < 4; i++) expectCreated(await submit(a.id, body, { key: key.key, server: limited }), a.id);
    for (let i = 0; i < 3; i++) expectCreated(await submit(a.id, body, { origin: ORIGIN, server: limited }), a.id);

    const fourth = await submit(a.id, body, { origin: ORIGIN, server: limited });
    expectError(fourth, 429, 'rate_limited');
    const retryAfter = String(fourth.headers['retry-after']);
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);

    expectCreated(await submit(b.id, body, { origin: ORIGIN, server: limited }), b.id);
    expectCreated(await submit(a.id, body, { key: key.key, server: limited }), a.id);
    expectError(await submit(a.id, body, { origin: LOCAL_ORIGIN, server: limited }), 429, 'rate_limited');

    expect(await countRows(a.id, limited)).toBe(4 + 3 + 1);
    expect(await countRows(b.id, limited)).toBe(1);
  });
});
