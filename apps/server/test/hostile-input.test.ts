/**
 * Hostile input: malformed bodies, wrong content types, oversized payloads, strange strings and
 * path/query values of the wrong shape, over every route of the REST table and the tRPC endpoint.
 * Each answer must be the documented 4xx (DESIGN.md §2–§4) in the one error shape, never a 500.
 */
import { type RestRoute, restRoutes } from '@lfk/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDocumentedError, PASSWORD, rawExchange, type Res, type RequestOptions, startTestServer, type TestServer, type WireError } from '@lfk/testing';

const MiB = 1024 * 1024;

let t: TestServer;
let owner: Awaited<ReturnType<TestServer['signup']>>;
let member: Awaited<ReturnType<TestServer['signup']>>;
let outsider: Awaited<ReturnType<TestServer['signup']>>;
/** Only ever the subject of members.add bodies, so a wrongly accepted add disturbs nothing else. */
let stranger: Awaited<ReturnType<TestServer['signup']>>;
let key: string;
let keyId: string;
let formId: string;
let outsiderKeyId: string;
/** An unclaimed form and its claim token. */
let unclaimed: { id: string; claimToken: string };
/** A browser-mode form that takes submissions from ORIGIN. */
let openFormId: string;
const ORIGIN = 'https://site.example';

const formBody = { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] };

beforeAll(async () => {
  t = await startTestServer();
  owner = await t.signup();
  member = await t.signup();
  outsider = await t.signup();
  stranger = await t.signup();
  await t.addMember(owner.token, owner.workspaceId, member.email, 'member');
  ({ key, id: keyId } = await t.createKey(owner.token, owner.workspaceId, 'hostile'));
  outsiderKeyId = (await t.createKey(outsider.token, outsider.workspaceId)).id;
  const form = await t.request('POST', '/v1/forms', { token: key, body: formBody });
  if (form.status !== 201) throw new Error(`form create failed: ${form.status} ${form.body}`);
  formId = form.json.id;
  const anonymous = await t.request('POST', '/v1/forms', { body: { ...formBody, notify_email: 'anon@example.com' } });
  if (anonymous.status !== 201) throw new Error(`anonymous create failed: ${anonymous.status} ${anonymous.body}`);
  unclaimed = { id: anonymous.json.id, claimToken: anonymous.json.claim_token };
  const open = await t.request('POST', '/v1/forms', {
    token: key,
    body: { ...formBody, schema: [{ name: 'email', type: 'email' }, { name: 'message', type: 'textarea' }], allowed_origins: [ORIGIN] },
  });
  if (open.status !== 201) throw new Error(`form create failed: ${open.status} ${open.body}`);
  openFormId = open.json.id;
});
afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------
// Error assertions: expectDocumentedError (the harness's) and the shapes built on it.
// ---------------------------------------------------------------------------------------------

/** A 400 invalid_request whose details name `path` (exactly). */
function expectInvalid(res: Res, path: string, what = ''): WireError {
  const error = expectDocumentedError(res, 400, 'invalid_request', what);
  expect(error.details, `${what}: details ${JSON.stringify(error.details)}`).toBeDefined();
  expect(
    error.details!.map((d) => d.path),
    `${what}: details ${JSON.stringify(error.details)}`,
  ).toContain(path);
  return error;
}

/** tRPC's envelope: `{ error: { message, code, data: { code, message, details?, request_id, httpStatus } } }`. */
function expectTrpcError(res: Res, status: number, code: string, what = ''): WireError {
  const label = `${what} → ${res.status} ${res.body.slice(0, 500)}`;
  expect(res.status, label).toBe(status);
  expect(String(res.headers['content-type']), label).toMatch(/^application\/json/);
  const requestId = res.headers['x-request-id'];
  expect(typeof requestId, label).toBe('string');
  expect(res.json, label).toBeTypeOf('object');
  expect(Object.keys(res.json), label).toEqual(['error']);
  const { error } = res.json;
  expect(typeof error.code, label).toBe('number');
  expect(typeof error.message, label).toBe('string');
  const { httpStatus, ...data } = error.data;
  expect(httpStatus, label).toBe(status);
  expect(data.code, label).toBe(code);
  expect(data.request_id, label).toBe(requestId);
  expect(error.message, label).toBe(data.message);
  for (const k of Object.keys(error)) expect(['code', 'message', 'data'], label).toContain(k);
  for (const k of Object.keys(data)) expect(['code', 'message', 'details', 'request_id'], label).toContain(k);
  expect(JSON.stringify(error), label).not.toMatch(/node_modules|\.ts:\d+|stack/);
  return data as WireError;
}

/** Runs every case, then fails once, listing each case that failed: one bad case hides no other. */
async function everyCase<T>(cases: readonly T[], check: (c: T) => Promise<void>): Promise<void> {
  const failures: string[] = [];
  for (const c of cases) {
    try {
      await check(c);
    } catch (error) {
      failures.push(String((error as Error).message).split('\n')[0]!.slice(0, 400));
    }
  }
  expect(failures, `${failures.length} of ${cases.length} cases failed:\n${failures.join('\n')}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Every body route, with a caller and a valid body.
// ---------------------------------------------------------------------------------------------

interface BodyCase {
  url: () => string;
  token: () => string | undefined;
  valid: () => Record<string, unknown>;
  /** Whether an empty body is a valid input (every field optional). */
  emptyOk: boolean;
  /** A body with one unknown field. */
  unknown: () => Record<string, unknown>;
  /** The field that takes a person's text, if any, for the string checks. */
  textField?: string;
}

let emailCounter = 0;
const freshEmail = () => `hostile${++emailCounter}-${Date.now()}@example.com`;

const BODY_CASES: Partial<Record<RestRoute['procedure'], BodyCase>> = {
  'auth.signup': {
    url: () => '/v1/auth/signup',
    token: () => undefined,
    valid: () => ({ email: freshEmail(), password: PASSWORD }),
    emptyOk: false,
    unknown: () => ({ email: freshEmail(), password: PASSWORD, role: 'admin' }),
    textField: 'name',
  },
  'auth.login': {
    url: () => '/v1/auth/login',
    token: () => undefined,
    valid: () => ({ email: owner.email, password: PASSWORD }),
    emptyOk: false,
    unknown: () => ({ email: owner.email, password: PASSWORD, remember_me: true }),
  },
  'workspaces.create': {
    url: () => '/v1/workspaces',
    token: () => owner.token,
    valid: () => ({ name: 'W' }),
    emptyOk: false,
    unknown: () => ({ name: 'W', plan: 'enterprise' }),
    textField: 'name',
  },
  'members.add': {
    url: () => `/v1/workspaces/${owner.workspaceId}/members`,
    token: () => owner.token,
    valid: () => ({ email: stranger.email, role: 'member' }),
    emptyOk: false,
    unknown: () => ({ email: stranger.email, role: 'member', is_admin: true }),
  },
  'projects.create': {
    url: () => `/v1/workspaces/${owner.workspaceId}/projects`,
    token: () => owner.token,
    valid: () => ({ name: 'P' }),
    emptyOk: false,
    unknown: () => ({ name: 'P', is_default: true }),
    textField: 'name',
  },
  'apiKeys.create': {
    url: () => `/v1/workspaces/${owner.workspaceId}/api-keys`,
    token: () => owner.token,
    valid: () => ({ name: 'k' }),
    emptyOk: true,
    unknown: () => ({ name: 'k', scopes: ['everything'] }),
    textField: 'name',
  },
  'forms.create': {
    url: () => '/v1/forms',
    token: () => key,
    valid: () => ({ ...formBody }),
    emptyOk: false,
    unknown: () => ({ ...formBody, state: 'unclaimed' }),
    textField: 'name',
  },
  'forms.update': {
    url: () => `/v1/forms/${formId}`,
    token: () => key,
    valid: () => ({ name: 'Contact' }),
    emptyOk: true,
    unknown: () => ({ name: 'Contact', workspace_id: outsider.workspaceId }),
    textField: 'name',
  },
  'forms.claim': {
    url: () => `/v1/forms/${unclaimed.id}/claim`,
    token: () => owner.token,
    valid: () => ({ claim_token: unclaimed.claimToken, workspace_id: owner.workspaceId }),
    emptyOk: false,
    unknown: () => ({ claim_token: unclaimed.claimToken, workspace_id: owner.workspaceId, project_id: 'prj_x' }),
  },
};

// The submission route takes form posts and validates against each form's own schema: its
// hostile input has its own section below.
const bodyRoutes = restRoutes.filter((r) => r.from === 'body' && !r.transport);

function opts(c: BodyCase, extra: RequestOptions = {}): RequestOptions {
  const token = c.token();
  return { ...(token ? { token } : {}), ...extra };
}

const MALFORMED_JSON: [string, string | Buffer][] = [
  ['an unclosed object', '{'],
  ['a missing value', '{"a":}'],
  ['a truncated literal', 'nul'],
  ['a trailing comma', '{"name":"x",}'],
  ['single quotes', "{'name':'x'}"],
  ['an unquoted key', '{name:"x"}'],
  ['an unterminated string', '{"name":"x'],
  ['trailing garbage', '{"name":"x"} garbage'],
  ['two documents', '{"a":1}{"b":2}'],
  ['NaN', 'NaN'],
  ['undefined', 'undefined'],
  ['a raw control character in a string', '{"name":"a\u0001b"}'],
  ['a bad escape', '{"name":"\\x41"}'],
  ['a truncated unicode escape', '{"name":"\\u12"}'],
  ['an unclosed array', '[1,2'],
  ['invalid UTF-8 bytes', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0x7d])],
  ['deep nesting, unclosed', '['.repeat(10_000)],
];

const NON_OBJECT_JSON: [string, string][] = [
  ['an array', '[{"name":"x"}]'],
  ['an empty array', '[]'],
  ['a string', '"name"'],
  ['a number', '42'],
  ['true', 'true'],
  ['null', 'null'],
];

const OTHER_CONTENT_TYPES: [string, string][] = [
  ['text/plain', '{"name":"x"}'],
  ['application/xml', '<name>x</name>'],
  ['application/x-www-form-urlencoded', 'name=x&email=a%40example.com'],
  ['multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--XyZ--\r\n'],
  ['text/html', '<b>x</b>'],
  ['application/octet-stream', 'name=x'],
  ['', '{"name":"x"}'], // an empty content-type header
];

/** A JSON object of exactly `bytes` bytes: `{"name":"aaaa…"}`. */
function jsonOfSize(bytes: number): string {
  const shell = '{"name":""}';
  return `{"name":"${'a'.repeat(bytes - shell.length)}"}`;
}

describe('every body route of the REST table', () => {
  it('has a case in this file (no body route goes untested)', () => {
    expect(bodyRoutes.length).toBeGreaterThan(0);
    for (const route of bodyRoutes) expect(BODY_CASES[route.procedure], route.procedure).toBeDefined();
  });

  describe.each(bodyRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
    const c = () => BODY_CASES[route.procedure]!;

    it('malformed JSON → 400 invalid_json', async () => {
      await everyCase(MALFORMED_JSON, async ([what, raw]) => {
        const res = await t.request(route.method, c().url(), opts(c(), { raw }));
        expectDocumentedError(res, 400, 'invalid_json', what);
      });
    });

    it('JSON that is not an object → 400 invalid_request', async () => {
      await everyCase(NON_OBJECT_JSON, async ([what, raw]) => {
        const res = await t.request(route.method, c().url(), opts(c(), { raw }));
        expectDocumentedError(res, 400, 'invalid_request', what);
      });
    });

    it('other content types → 415 unsupported_media_type', async () => {
      await everyCase(OTHER_CONTENT_TYPES, async ([contentType, raw]) => {
        const res = await t.request(route.method, c().url(), opts(c(), { raw, headers: { 'content-type': contentType } }));
        expectDocumentedError(res, 415, 'unsupported_media_type', contentType);
      });
    });

    it('a body just over 1 MiB → 413 payload_too_large; exactly 1 MiB is read', async () => {
      const over = await t.request(route.method, c().url(), opts(c(), { raw: jsonOfSize(MiB + 1) }));
      expectDocumentedError(over, 413, 'payload_too_large', '1 MiB + 1');
      const farOver = await t.request(route.method, c().url(), opts(c(), { raw: Buffer.alloc(5 * MiB, 0x20) }));
      expectDocumentedError(farOver, 413, 'payload_too_large', '5 MiB');
      // At the limit the body is parsed and validated (a 1 MiB name is too long, or not a field).
      const at = await t.request(route.method, c().url(), opts(c(), { raw: jsonOfSize(MiB) }));
      expectDocumentedError(at, 400, 'invalid_request', 'exactly 1 MiB');
    });

    it('an empty body with content-type json is no input: a 400 invalid_request, or success when every field is optional', async () => {
      await everyCase(['', '   \n'], async (raw) => {
        const res = await t.request(route.method, c().url(), opts(c(), { raw }));
        if (c().emptyOk) {
          expect(res.status, res.body).toBe(route.status);
        } else {
          expectDocumentedError(res, 400, 'invalid_request', `empty body ${JSON.stringify(raw)}`);
        }
      });
    });

    it('an unknown field → 400 invalid_request (strict objects)', async () => {
      const res = await t.request(route.method, c().url(), opts(c(), { body: c().unknown() }));
      const error = expectDocumentedError(res, 400, 'invalid_request', 'unknown field');
      expect(error.details?.length, res.body).toBeGreaterThan(0);
    });

    it('prototype-polluting keys are unknown fields, not merged', async () => {
      for (const raw of [
        `{"__proto__":{"admin":true},${JSON.stringify(c().valid()).slice(1)}`,
        `{"constructor":{"prototype":{"admin":true}},${JSON.stringify(c().valid()).slice(1)}`,
      ]) {
        const res = await t.request(route.method, c().url(), opts(c(), { raw }));
        expectDocumentedError(res, 400, 'invalid_request', raw.slice(0, 40));
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('NUL, control characters and lone surrogates in its text field → 400 (escaped JSON still reaches validation)', async () => {
      const field = c().textField;
      if (!field && route.procedure === 'forms.claim') {
        // No free text here, and no email either: a lone surrogate in the token is a token that names nothing.
        const res = await t.request(route.method, c().url(), opts(c(), { body: { ...c().valid(), claim_token: 'lfc_\ud800' } }));
        expectDocumentedError(res, 404, 'form_not_found', 'lone surrogate in claim_token');
        return;
      }
      if (!field) {
        // No free text here: a lone surrogate in the email is still a validation error.
        const raw = JSON.stringify({ ...c().valid(), email: 'a\ud800@example.com' });
        expectInvalid(await t.request(route.method, c().url(), opts(c(), { raw })), 'email', 'lone surrogate in email');
        return;
      }
      await everyCase(BAD_TEXT, async (bad) => {
        const body = { ...c().valid(), [field]: bad };
        const res = await t.request(route.method, c().url(), opts(c(), { body }));
        expectInvalid(res, field, JSON.stringify(bad));
      });
      // The escape as raw JSON text: valid JSON, so it is validation that refuses it.
      const rest: Record<string, unknown> = { ...c().valid() };
      delete rest[field];
      const raw = `${JSON.stringify(rest).slice(0, -1)}${Object.keys(rest).length ? ',' : ''}"${field}":"x\\ud800y"}`;
      expectInvalid(await t.request(route.method, c().url(), opts(c(), { raw })), field, 'raw \\ud800 escape');
    });
  });
});

describe('the submission route', () => {
  const url = () => `/v1/forms/${openFormId}/submissions`;
  const headers = { origin: ORIGIN };

  it('malformed JSON → 400 invalid_json', async () => {
    await everyCase(MALFORMED_JSON, async ([what, raw]) => {
      expectDocumentedError(await t.request('POST', url(), { raw, headers }), 400, 'invalid_json', what);
    });
  });

  it('JSON that is not an object → 400 invalid_request', async () => {
    await everyCase(NON_OBJECT_JSON.filter(([what]) => what !== 'null'), async ([what, raw]) => {
      expectDocumentedError(await t.request('POST', url(), { raw, headers }), 400, 'invalid_request', what);
    });
  });

  it('content types other than JSON and form posts → 415 unsupported_media_type', async () => {
    const others = OTHER_CONTENT_TYPES.filter(([type]) => type !== 'application/x-www-form-urlencoded');
    await everyCase(others, async ([contentType, raw]) => {
      const res = await t.request('POST', url(), { raw, headers: { ...headers, 'content-type': contentType } });
      expectDocumentedError(res, 415, 'unsupported_media_type', contentType);
    });
  });

  it('a body over 64 KiB → 413 payload_too_large, as JSON and as a form post', async () => {
    const message = 'a'.repeat(64 * 1024);
    expectDocumentedError(await t.request('POST', url(), { body: { message }, headers }), 413, 'payload_too_large', 'json');
    const form = await t.request('POST', url(), {
      raw: `message=${message}`,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectDocumentedError(form, 413, 'payload_too_large', 'form post');
  });

  it('prototype-polluting keys are unknown fields of the form (422), and pollute nothing', async () => {
    for (const raw of ['{"__proto__":{"admin":true},"email":"a@example.com"}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const res = await t.request('POST', url(), { raw, headers });
      const error = expectDocumentedError(res, 422, 'validation_failed', raw);
      expect(error.details?.map((d) => d.path)).toContain(raw.includes('__proto__') ? '__proto__' : 'constructor');
    }
    const form = await t.request('POST', url(), {
      raw: '__proto__=x&constructor=y&email=a%40example.com',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    });
    const error = expectDocumentedError(form, 422, 'validation_failed', 'form post');
    expect(error.details?.map((d) => d.path).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('NUL and lone surrogates in a value → 422 naming the field; other unicode is kept', async () => {
    await everyCase(['a\u0000b', '\ud800', 'x\ud83d'], async (bad) => {
      const res = await t.request('POST', url(), { body: { message: bad }, headers });
      const error = expectDocumentedError(res, 422, 'validation_failed', JSON.stringify(bad));
      expect(error.details).toEqual([{ path: 'message', message: expect.any(String) }]);
    });
    const ok = await t.request('POST', url(), { body: { message: 'tab\tnew\nline ✓ 🎉 \u202e' }, headers });
    expect(ok.status, ok.body).toBe(201);
  });
});

const BAD_TEXT = [
  'a\u0000b',
  '\u0000',
  'bell\u0007',
  'esc\u001b[31m',
  'del\u007f',
  'v\u000bt', // VT and FF inside the text: at its ends trim() removes them as whitespace
  'f\u000ct',
  '\ud800',
  'a\udc00b',
  'x\ud83d', // half an emoji
  '\udfff\ud800',
  '   ',
  '',
];

// ---------------------------------------------------------------------------------------------
// Lengths, types and unknown fields of specific bodies.
// ---------------------------------------------------------------------------------------------

describe('lengths', () => {
  it('workspace names: 100 characters are fine, 101 are not', async () => {
    const ok = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'w'.repeat(100) } });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.name).toBe('w'.repeat(100));
    const long = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'w'.repeat(101) } });
    expectInvalid(long, 'name', 'workspace name 101');
    const huge = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'w'.repeat(500_000) } });
    expectInvalid(huge, 'name', 'workspace name 500k');
  });

  it('project names: 100 characters are fine, 101 are not', async () => {
    const url = `/v1/workspaces/${owner.workspaceId}/projects`;
    expectInvalid(await t.request('POST', url, { token: owner.token, body: { name: 'p'.repeat(101) } }), 'name');
    const ok = await t.request('POST', url, { token: owner.token, body: { name: 'p'.repeat(100) } });
    expect(ok.status, ok.body).toBe(201);
  });

  it('signup names: at most 100 characters', async () => {
    const res = await t.request('POST', '/v1/auth/signup', {
      body: { email: freshEmail(), password: PASSWORD, name: 'n'.repeat(101) },
    });
    expectInvalid(res, 'name');
  });

  it('key names: 64 characters are fine, 65 are not', async () => {
    const ws = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'keys' } });
    const url = `/v1/workspaces/${ws.json.id}/api-keys`;
    expectInvalid(await t.request('POST', url, { token: owner.token, body: { name: 'k'.repeat(65) } }), 'name');
    const ok = await t.request('POST', url, { token: owner.token, body: { name: 'k'.repeat(64) } });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.name).toBe('k'.repeat(64));
  });

  it('form names: 200 characters are fine, 201 are not (create and update)', async () => {
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, name: 'f'.repeat(201) } }), 'name');
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { name: 'f'.repeat(201) } }), 'name');
    const ok = await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, name: 'f'.repeat(200) } });
    expect(ok.status, ok.body).toBe(201);
  });

  it('field names: 64 characters are fine, 65 are not', async () => {
    const field = (name: string) => ({ name: 'F', schema: [{ name: 'ok', type: 'text' }, { name, type: 'text' }] });
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: field('a'.repeat(65)) }), 'schema.1.name');
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { schema: field('a'.repeat(65)).schema } }), 'schema.1.name');
    const ok = await t.request('POST', '/v1/forms', { token: key, body: field('a'.repeat(64)) });
    expect(ok.status, ok.body).toBe(201);
  });

  it('fields: 100 are fine, 101 are not, 0 are not', async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, type: 'text' }));
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: fields(101) } }), 'schema');
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: fields(0) } }), 'schema');
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { schema: fields(101) } }), 'schema');
    const ok = await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: fields(100) } });
    expect(ok.status, ok.body).toBe(201);
    expect(ok.json.schema).toHaveLength(100);
  });

  it('labels and options: at most 200 characters, at most 100 options', async () => {
    const res = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'text', label: 'l'.repeat(201) }] },
    });
    expectInvalid(res, 'schema.0.label');
    const opts = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'select', options: ['o'.repeat(201)] }] },
    });
    expectInvalid(opts, 'schema.0.options.0');
    const many = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'select', options: Array.from({ length: 101 }, (_, i) => `o${i}`) }] },
    });
    expectInvalid(many, 'schema.0.options');
  });

  it('passwords and emails: overlong values are a 400, not a hashing marathon or a 500', async () => {
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: 'p'.repeat(1025) } }), 'password');
    expectInvalid(await t.request('POST', '/v1/auth/login', { body: { email: owner.email, password: 'p'.repeat(1025) } }), 'password');
    const longEmail = `${'a'.repeat(250)}@example.com`;
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: longEmail, password: PASSWORD } }), 'email');
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: 'not an email', password: PASSWORD } }), 'email');
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: 'short' } }), 'password');
  });
});

describe('wrong types', () => {
  it('a number, null, boolean, object or array where a string is expected → 400 naming the field', async () => {
    await everyCase([42, null, true, { a: 1 }, ['x']], async (value) => {
      const what = JSON.stringify(value);
      expectInvalid(await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: value } }), 'name', what);
      expectInvalid(
        await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: { name: value } }),
        'name',
        what,
      );
      expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, name: value } }), 'name', what);
      expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { name: value } }), 'name', what);
      expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: value, password: PASSWORD } }), 'email', what);
      expectInvalid(await t.request('POST', '/v1/auth/login', { body: { email: owner.email, password: value } }), 'password', what);
      expectInvalid(
        await t.request('POST', `/v1/workspaces/${owner.workspaceId}/members`, { token: owner.token, body: { email: value } }),
        'email',
        what,
      );
    });
  });

  it('a string for the boolean `required` → 400 at schema.N.required', async () => {
    await everyCase(['yes', 'true', 1, null], async (required) => {
      const body = { name: 'F', schema: [{ name: 'a', type: 'text' }, { name: 'b', type: 'text', required }] };
      expectInvalid(await t.request('POST', '/v1/forms', { token: key, body }), 'schema.1.required', JSON.stringify(required));
      expectInvalid(
        await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { schema: body.schema } }),
        'schema.1.required',
        JSON.stringify(required),
      );
    });
  });

  it('wrong types and values of the other form fields', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ schema: 'email' }, 'schema'],
      [{ schema: { name: 'a', type: 'text' } }, 'schema'],
      [{ schema: ['email'] }, 'schema.0'],
      [{ schema: [null] }, 'schema.0'],
      [{ schema: [{ name: 5, type: 'text' }] }, 'schema.0.name'],
      [{ schema: [{ type: 'text' }] }, 'schema.0.name'],
      [{ schema: [{ name: 'a' }] }, 'schema.0.type'],
      [{ schema: [{ name: 'a', type: 7 }] }, 'schema.0.type'],
      [{ schema: [{ name: 'a', type: 'select', options: 'x,y' }] }, 'schema.0.options'],
      [{ schema: [{ name: 'a', type: 'select', options: [1, 2] }] }, 'schema.0.options.0'],
      [{ schema: [{ name: 'a', type: 'text', label: 5 }] }, 'schema.0.label'],
      [{ submission_mode: 'email' }, 'submission_mode'],
      [{ submission_mode: 1 }, 'submission_mode'],
      [{ allowed_origins: 'https://example.com' }, 'allowed_origins'],
      [{ allowed_origins: [5] }, 'allowed_origins.0'],
      [{ redirect_url: 5 }, 'redirect_url'],
      [{ redirect_url: 'javascript:alert(1)' }, 'redirect_url'],
      [{ redirect_url: 'not a url' }, 'redirect_url'],
      [{ redirect_url: 'https://user:pass@example.com/' }, 'redirect_url'],
      [{ project_id: 5 }, 'project_id'],
      [{ workspace_id: 5 }, 'workspace_id'],
    ];
    await everyCase(cases, async ([patch, path]) => {
      const what = JSON.stringify(patch);
      expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, ...patch } }), path, `create ${what}`);
      if (!('workspace_id' in patch)) {
        expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: patch }), path, `update ${what}`);
      }
    });
  });

  it('a member role outside owner|member → 400 at role', async () => {
    await everyCase(['admin', 'OWNER', 5, null], async (role) => {
      const res = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/members`, {
        token: owner.token,
        body: { email: outsider.email, role },
      });
      expectInvalid(res, 'role', JSON.stringify(role));
    });
  });
});

describe('unknown fields', () => {
  it('are refused on every strict body, also nested in a form field', async () => {
    const cases: [string, string, string | undefined, Record<string, unknown>][] = [
      ['POST', '/v1/auth/signup', undefined, { email: freshEmail(), password: PASSWORD, is_admin: true }],
      ['POST', '/v1/auth/login', undefined, { email: owner.email, password: PASSWORD, otp: '123456' }],
      ['POST', '/v1/workspaces', owner.token, { name: 'W', owner_id: member.userId }],
      ['POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, owner.token, { name: 'k', workspace_id2: 'x' }],
      ['POST', `/v1/workspaces/${owner.workspaceId}/projects`, owner.token, { name: 'P', is_default: true }],
      ['POST', `/v1/workspaces/${owner.workspaceId}/members`, owner.token, { email: outsider.email, admin: true }],
      ['POST', '/v1/forms', key, { ...formBody, id: 'form_01jd00000000000000000000aa' }],
      ['POST', '/v1/forms', key, { ...formBody, state: 'unclaimed' }],
      ['PATCH', `/v1/forms/${formId}`, key, { workspace_id: outsider.workspaceId }],
      ['PATCH', `/v1/forms/${formId}`, key, { state: 'unclaimed' }],
    ];
    await everyCase(cases, async ([method, url, token, body]) => {
      const res = await t.request(method, url, { ...(token ? { token } : {}), body });
      const error = expectDocumentedError(res, 400, 'invalid_request', `${method} ${url} ${JSON.stringify(body)}`);
      expect(error.details?.length).toBeGreaterThan(0);
    });
    const nested = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'text', placeholder: 'x' }] },
    });
    expectInvalid(nested, 'schema.0', 'unknown key in a field');
    // Nothing moved: the form is still in its workspace.
    const form = await t.request('GET', `/v1/forms/${formId}`, { token: key });
    expect(form.json.workspace_id).toBe(owner.workspaceId);
  });
});

// ---------------------------------------------------------------------------------------------
// Strings: what is refused, and what is kept exactly.
// ---------------------------------------------------------------------------------------------

describe('strings', () => {
  it('NUL, control characters and lone surrogates in labels, options and field names → 400', async () => {
    await everyCase(BAD_TEXT.filter((s) => s.trim() !== ''), async (bad) => {
      const what = JSON.stringify(bad);
      expectInvalid(
        await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: 'a', type: 'text', label: bad }] } }),
        'schema.0.label',
        `label ${what}`,
      );
      expectInvalid(
        await t.request('POST', '/v1/forms', {
          token: key,
          body: { name: 'F', schema: [{ name: 'a', type: 'select', options: ['ok', bad] }] },
        }),
        'schema.0.options.1',
        `option ${what}`,
      );
      expectInvalid(
        await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: `a${bad}`, type: 'text' }] } }),
        'schema.0.name',
        `field name ${what}`,
      );
    });
  });

  it('field names must start with a letter and hold only letters, digits, _ and -', async () => {
    await everyCase(['1a', '_a', '-a', 'a b', 'a.b', 'a/b', 'é', 'a😀', '', 'a\u0000'], async (name) => {
      expectInvalid(
        await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name, type: 'text' }] } }),
        'schema.0.name',
        JSON.stringify(name),
      );
    });
  });

  it('a NUL in an email or password is a 400 (or a failed login), never a 500', async () => {
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: 'a\u0000b@example.com', password: PASSWORD } }), 'email');
    const signup = await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: `${PASSWORD}\u0000` } });
    expect(signup.status, signup.body).not.toBe(500);
    const login = await t.request('POST', '/v1/auth/login', { body: { email: `${owner.email}\u0000`, password: PASSWORD } });
    expect([400, 401], login.body).toContain(login.status);
    expectDocumentedError(login, login.status, login.status === 400 ? 'invalid_request' : 'invalid_credentials');
  });

  const UNICODE = {
    workspace: '🦊 Füchse — 狐狸の会 — שועלים ومرحبا 👩‍👩‍👧‍👦 Ǆ',
    key: '🔑 clé — 鍵 — مفتاح — 𝔘𝔫𝔦',
    form: 'Contact — お問い合わせ — اتصل بنا 📨 — Ελληνικά — 한국어',
    label: 'البريد الإلكتروني — 電子メール ✉️',
    options: ['是', 'Nein ❌', 'כן', '🇫🇷', 'e\u0301 (combining)', 'ﷺ'],
    person: 'Zoë 王 محمد 🧑🏽‍💻',
  };

  it('valid unicode (emoji, CJK, RTL, combining marks) in a workspace name is stored and returned exactly', async () => {
    const created = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: UNICODE.workspace } });
    expect(created.status, created.body).toBe(201);
    expect(created.json.name).toBe(UNICODE.workspace);
    const list = await t.request('GET', '/v1/workspaces?limit=100', { token: owner.token });
    expect(list.json.data.find((w: { id: string }) => w.id === created.json.id)?.name).toBe(UNICODE.workspace);
    const rows = await t.sql<{ name: string }>('select name from workspaces where id = ?', [created.json.id]);
    expect(rows[0]!.name).toBe(UNICODE.workspace);
    expect(Buffer.from(rows[0]!.name, 'utf8').equals(Buffer.from(UNICODE.workspace, 'utf8'))).toBe(true);
  });

  it('valid unicode in a key name is stored and returned exactly', async () => {
    const ws = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: 'unicode keys' } });
    const created = await t.request('POST', `/v1/workspaces/${ws.json.id}/api-keys`, {
      token: owner.token,
      body: { name: UNICODE.key },
    });
    expect(created.status, created.body).toBe(201);
    expect(created.json.name).toBe(UNICODE.key);
    const list = await t.request('GET', `/v1/workspaces/${ws.json.id}/api-keys`, { token: owner.token });
    expect(list.json.data[0].name).toBe(UNICODE.key);
    const rows = await t.sql<{ name: string }>('select name from api_keys where id = ?', [created.json.id]);
    expect(rows[0]!.name).toBe(UNICODE.key);
  });

  it('valid unicode in form names, labels and options is stored and returned exactly', async () => {
    const schema = [
      { name: 'email', type: 'email', required: true, label: UNICODE.label },
      { name: 'answer', type: 'select', required: false, options: UNICODE.options },
    ];
    const created = await t.request('POST', '/v1/forms', { token: key, body: { name: UNICODE.form, schema } });
    expect(created.status, created.body).toBe(201);
    expect(created.json.name).toBe(UNICODE.form);
    expect(created.json.schema).toEqual(schema);
    const read = await t.request('GET', `/v1/forms/${created.json.id}`, { token: key });
    expect(read.json.name).toBe(UNICODE.form);
    expect(read.json.schema).toEqual(schema);
    const rows = await t.sql<{ name: string }>('select name from forms where id = ?', [created.json.id]);
    expect(rows[0]!.name).toBe(UNICODE.form);
    const raw = await t.sql<{ schema: string }>('select schema::text as schema from forms where id = ?', [created.json.id]);
    expect(JSON.parse(raw[0]!.schema)).toEqual(schema);

    const renamed = `${UNICODE.form} ✅`;
    const updated = await t.request('PATCH', `/v1/forms/${created.json.id}`, { token: key, body: { name: renamed } });
    expect(updated.status, updated.body).toBe(200);
    expect((await t.request('GET', `/v1/forms/${created.json.id}`, { token: key })).json.name).toBe(renamed);
    expect((await t.sql<{ name: string }>('select name from forms where id = ?', [created.json.id]))[0]!.name).toBe(renamed);
  });

  it('valid unicode in a person’s name and a project name is stored and returned exactly', async () => {
    const signup = await t.request('POST', '/v1/auth/signup', {
      body: { email: freshEmail(), password: PASSWORD, name: UNICODE.person },
    });
    expect(signup.status, signup.body).toBe(201);
    const session = await t.request('GET', '/v1/auth/session', { token: signup.json.session_token });
    expect(session.json.user.name).toBe(UNICODE.person);
    const users = await t.sql<{ name: string }>('select name from users where id = ?', [signup.json.user.id]);
    expect(users[0]!.name).toBe(UNICODE.person);

    const project = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, {
      token: owner.token,
      body: { name: UNICODE.workspace },
    });
    expect(project.status, project.body).toBe(201);
    const projects = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/projects?limit=100`, { token: owner.token });
    expect(projects.json.data.find((p: { id: string }) => p.id === project.json.id)?.name).toBe(UNICODE.workspace);
    const rows = await t.sql<{ name: string }>('select name from projects where id = ?', [project.json.id]);
    expect(rows[0]!.name).toBe(UNICODE.workspace);
  });

  it('surrounding whitespace is trimmed; inner whitespace is kept', async () => {
    const res = await t.request('POST', '/v1/workspaces', { token: owner.token, body: { name: '  a  b  ' } });
    expect(res.status, res.body).toBe(201);
    expect(res.json.name).toBe('a  b');
  });
});

// ---------------------------------------------------------------------------------------------
// Form schema and origins.
// ---------------------------------------------------------------------------------------------

describe('form schema validation', () => {
  const cases: [string, unknown[], string][] = [
    ['an unknown field type', [{ name: 'a', type: 'text' }, { name: 'b', type: 'password' }], 'schema.1.type'],
    ['a select without options', [{ name: 'a', type: 'text' }, { name: 'b', type: 'select' }], 'schema.1.options'],
    ['a select with empty options', [{ name: 'b', type: 'select', options: [] }], 'schema.0.options'],
    ['options on a non-select', [{ name: 'a', type: 'text' }, { name: 'b', type: 'checkbox', options: ['x'] }], 'schema.1.options'],
    ['duplicate options', [{ name: 'b', type: 'select', options: ['x', 'x'] }], 'schema.0.options'],
    ['duplicate field names', [{ name: 'a', type: 'text' }, { name: 'a', type: 'email' }], 'schema.1.name'],
    [
      'a later duplicate',
      [{ name: 'a', type: 'text' }, { name: 'b', type: 'text' }, { name: 'c', type: 'text' }, { name: 'b', type: 'url' }],
      'schema.3.name',
    ],
  ];

  it.each(cases)('%s → 400 with a detail at the field (create and update)', async (_what, schema, path) => {
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema } }), path, 'create');
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { schema } }), path, 'update');
    // With a session too (the same validation whatever the credential).
    expectInvalid(
      await t.request('POST', '/v1/forms', { token: owner.token, body: { name: 'F', schema, workspace_id: owner.workspaceId } }),
      path,
      'create with a session',
    );
  });

  it('every documented field type is accepted', async () => {
    const schema: Record<string, unknown>[] = ['text', 'textarea', 'email', 'number', 'url', 'tel', 'date', 'checkbox'].map(
      (type) => ({ name: `f_${type}`, type, required: false }),
    );
    schema.push({ name: 'f_select', type: 'select', required: false, options: ['a'] });
    const res = await t.request('POST', '/v1/forms', { token: key, body: { name: 'All', schema } });
    expect(res.status, res.body).toBe(201);
    expect(res.json.schema).toEqual(schema);
  });

  it('a session without workspace_id → 400 at workspace_id', async () => {
    expectInvalid(await t.request('POST', '/v1/forms', { token: owner.token, body: formBody }), 'workspace_id');
  });
});

describe('allowed_origins', () => {
  const BAD_ORIGINS = [
    'https://example.com/path',
    'https://example.com/',
    'https://example.com?x=1',
    'https://example.com#top',
    'https://user:pw@example.com',
    'ftp://example.com',
    'javascript:alert(1)',
    'data:text/html,hi',
    'file:///etc/passwd',
    'ws://example.com',
    'example.com',
    '//example.com',
    '*',
    'null',
    '',
    'https://',
    `https://${'a'.repeat(2100)}.com`,
  ];

  it('with paths, non-http schemes or anything but an origin → 400 at allowed_origins.N', async () => {
    await everyCase(BAD_ORIGINS, async (bad) => {
      const allowed_origins = ['https://good.example', bad];
      expectInvalid(
        await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, allowed_origins } }),
        'allowed_origins.1',
        `create ${bad.slice(0, 60)}`,
      );
      expectInvalid(
        await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { allowed_origins } }),
        'allowed_origins.1',
        `update ${bad.slice(0, 60)}`,
      );
    });
  });

  it('more than 50 origins → 400', async () => {
    const allowed_origins = Array.from({ length: 51 }, (_, i) => `https://o${i}.example`);
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, allowed_origins } }), 'allowed_origins');
  });

  it('real origins are normalised: case, default ports, IDN', async () => {
    const res = await t.request('POST', '/v1/forms', {
      token: key,
      body: { ...formBody, allowed_origins: ['HTTPS://Example.COM:443', 'http://localhost:8080', 'https://bücher.example'] },
    });
    expect(res.status, res.body).toBe(201);
    expect(res.json.allowed_origins).toEqual(['https://example.com', 'http://localhost:8080', 'https://xn--bcher-kva.example']);
  });
});

// ---------------------------------------------------------------------------------------------
// Path ids and query parameters.
// ---------------------------------------------------------------------------------------------

/** Ids of the wrong shape, as they appear in a URL (already encoded where needed). */
function badIds(otherTypeId: string): [string, string][] {
  return [
    ['nope', 'nope'],
    ['%00', '%00'],
    ['NUL inside', 'ws_%00abc'],
    ['5000 chars', 'x'.repeat(5000)],
    ['another type of id', otherTypeId],
    ['upper-cased', otherTypeId.toUpperCase()],
    ["' OR '1'='1", encodeURIComponent("' OR '1'='1")],
    ['drop table', encodeURIComponent("1'; DROP TABLE api_keys; --")],
    ['union select', encodeURIComponent('x UNION SELECT key_hash FROM api_keys')],
    ['an encoded slash', '..%2F..%2Fetc%2Fpasswd'],
    ['emoji', encodeURIComponent('😀')],
    ['json', encodeURIComponent('{"$ne":null}')],
    ['whitespace', '%20%09'],
  ];
}

describe('path ids of the wrong shape → 404 of that resource', () => {
  const wsRoutes = restRoutes.filter((r) => r.path.includes(':workspace_id'));

  it('covers every workspace-scoped route of the table', () => {
    expect(wsRoutes.length).toBeGreaterThanOrEqual(9);
  });

  it.each(wsRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: workspace_id → 404 workspace_not_found', async (_n, route) => {
    const ids = [
      ...badIds(member.userId),
      ['a valid-shaped unknown id', 'ws_01jd00000000000000000000aa'] as [string, string],
      ['another’s workspace', outsider.workspaceId] as [string, string],
    ];
    await everyCase(ids, async ([what, id]) => {
      const url = route.path
        .replace(':workspace_id', id)
        .replace(':key_id', keyId)
        .replace(':user_id', member.userId);
      const body = route.from === 'body' ? BODY_CASES[route.procedure]?.valid() ?? {} : undefined;
      const res = await t.request(route.method, url, { token: owner.token, ...(body ? { body } : {}) });
      expectDocumentedError(res, 404, 'workspace_not_found', `${route.method} ${what}`);
    });
  });

  it('DELETE …/api-keys/:key_id → 404 api_key_not_found', async () => {
    const ids = [
      ...badIds(owner.workspaceId),
      ['a valid-shaped unknown id', 'key_01jd00000000000000000000aa'] as [string, string],
      ['another workspace’s key', outsiderKeyId] as [string, string],
    ];
    await everyCase(ids, async ([what, id]) => {
      const res = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token });
      expectDocumentedError(res, 404, 'api_key_not_found', what);
    });
    const list = await t.request('GET', `/v1/workspaces/${outsider.workspaceId}/api-keys`, { token: outsider.token });
    expect(list.json.data.every((k: { status: string }) => k.status === 'active')).toBe(true);
  });

  it('DELETE …/members/:user_id → 404 member_not_found', async () => {
    const ids = [
      ...badIds(owner.workspaceId),
      ['a valid-shaped unknown id', 'usr_01jd00000000000000000000aa'] as [string, string],
      ['a user who is not a member', outsider.userId] as [string, string],
    ];
    await everyCase(ids, async ([what, id]) => {
      const res = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/members/${id}`, { token: owner.token });
      expectDocumentedError(res, 404, 'member_not_found', what);
    });
  });

  it('GET and PATCH /v1/forms/:form_id → 404 form_not_found, with a key and with a session', async () => {
    const ids = [
      ...badIds(keyId),
      ['a valid-shaped unknown id', 'form_01jd00000000000000000000aa'] as [string, string],
    ];
    await everyCase([key, owner.token], async (token) => {
      await everyCase(ids, async ([what, id]) => {
        expectDocumentedError(await t.request('GET', `/v1/forms/${id}`, { token }), 404, 'form_not_found', `GET ${what}`);
        expectDocumentedError(
          await t.request('PATCH', `/v1/forms/${id}`, { token, body: { name: 'x' } }),
          404,
          'form_not_found',
          `PATCH ${what}`,
        );
      });
    });
    // Another workspace's form is not found either.
    expectDocumentedError(await t.request('GET', `/v1/forms/${formId}`, { token: outsider.token }), 404, 'form_not_found', 'outsider');
  });

  it('the other form routes → 404 form_not_found for ids of the wrong shape', async () => {
    const ids = [...badIds(keyId), ['a valid-shaped unknown id', 'form_01jd00000000000000000000aa'] as [string, string]];
    await everyCase(ids, async ([what, id]) => {
      const cases: [string, string, RequestOptions][] = [
        ['POST', `/v1/forms/${id}/resend-verification`, { token: key }],
        ['POST', `/v1/forms/${id}/claim`, { token: owner.token, body: { claim_token: unclaimed.claimToken, workspace_id: owner.workspaceId } }],
        ['POST', `/v1/forms/${id}/submissions`, { body: { email: 'a@example.com' }, headers: { origin: ORIGIN } }],
        ['POST', `/v1/forms/${id}/submissions`, { token: key, body: { email: 'a@example.com' } }],
        ['GET', `/v1/forms/${id}/submissions`, { token: owner.token }],
        ['OPTIONS', `/v1/forms/${id}/submissions`, { headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } }],
      ];
      for (const [method, url, options] of cases) {
        expectDocumentedError(await t.request(method, url, options), 404, 'form_not_found', `${method} ${url.slice(0, 60)} (${what})`);
      }
    });
  });

  it('verification links of the wrong shape → a 404 page', async () => {
    await everyCase([...badIds(keyId), ['an unknown token', `lfv_${'A'.repeat(43)}`] as [string, string]], async ([what, token]) => {
      const res = await t.request('GET', `/v1/email-verifications/${token}`);
      expect(res.status, what).toBe(404);
      expect(res.headers['content-type'], what).toMatch(/^text\/html/);
      expect(res.body, what).toContain('<meta name="lfk-error-code" content="not_found">');
    });
  });

  it('a path id that is not even valid percent-encoding → 404 of that resource, in the error shape', async () => {
    const encodings = ['%ED%A0%80' /* a lone surrogate as CESU-8 */, '%ZZ', '%', '%E0%A4%A', '%C0%AF' /* overlong "/" */];
    const urls: [string, string, string][] = [];
    for (const bad of encodings) {
      urls.push(
        ['GET', `/v1/workspaces/${bad}/api-keys`, 'workspace_not_found'],
        ['DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${bad}`, 'api_key_not_found'],
        ['DELETE', `/v1/workspaces/${owner.workspaceId}/members/${bad}`, 'member_not_found'],
        ['GET', `/v1/forms/${bad}`, 'form_not_found'],
        ['PATCH', `/v1/forms/${bad}`, 'form_not_found'],
      );
    }
    await everyCase(urls, async ([method, url, code]) => {
      const token = url.startsWith('/v1/forms') ? key : owner.token;
      const res = await t.request(method, url, { token, ...(method === 'PATCH' ? { body: { name: 'x' } } : {}) });
      expectDocumentedError(res, 404, code, `${method} ${url}`);
    });
  });

  it('workspace_id in a form body of the wrong shape → 404 workspace_not_found', async () => {
    await everyCase([...badIds(owner.userId), ['another’s', outsider.workspaceId] as [string, string]], async ([what, id]) => {
      const workspace_id = decodeURIComponentSafe(id);
      const res = await t.request('POST', '/v1/forms', { token: owner.token, body: { ...formBody, workspace_id } });
      expectDocumentedError(res, 404, 'workspace_not_found', what);
    });
  });
});

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

describe('query parameters', () => {
  const queryRoutes = restRoutes.filter((r) => r.from === 'query');

  it('covers every list route of the table', () => {
    expect(queryRoutes.map((r) => r.procedure).sort()).toEqual(
      ['apiKeys.list', 'auditEvents.list', 'forms.list', 'members.list', 'projects.list', 'submissions.list', 'workspaces.list'].sort(),
    );
  });

  const urlOf = (route: RestRoute) => route.path.replace(':workspace_id', owner.workspaceId).replace(':form_id', openFormId);

  it.each(queryRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: ?limit= out of range or not a number → 400', async (_n, route) => {
    await everyCase(['0', '101', '-1', 'abc', '1.5', '1e3', 'Infinity', 'NaN', '%00', '99999999999999999999', '1&limit=2'], async (limit) => {
      const res = await t.request('GET', `${urlOf(route)}?limit=${limit}`, { token: owner.token });
      expectInvalid(res, 'limit', `limit=${limit}`);
    });
    await everyCase(['1', '100'], async (limit) => {
      const res = await t.request('GET', `${urlOf(route)}?limit=${limit}`, { token: owner.token });
      expect(res.status, `limit=${limit} ${res.body}`).toBe(200);
      expect(res.json.data.length).toBeLessThanOrEqual(Number(limit));
    });
  });

  it.each(queryRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: a bogus ?cursor= → 400', async (_n, route) => {
    const cursors = [
      'bogus',
      'x'.repeat(5000),
      encodeURIComponent("' OR 1=1 --"),
      '%00',
      route.procedure === 'forms.list' ? keyId : formId, // a real id, of the wrong type for this list
      'abc&cursor=def',
    ];
    await everyCase(cursors, async (cursor) => {
      const res = await t.request('GET', `${urlOf(route)}?cursor=${cursor}`, { token: owner.token });
      expectInvalid(res, 'cursor', `cursor=${cursor.slice(0, 40)}`);
    });
    // A real cursor of this list works.
    const first = await t.request('GET', `${urlOf(route)}?limit=1`, { token: owner.token });
    expect(first.status, first.body).toBe(200);
    if (first.json.next_cursor) {
      const next = await t.request('GET', `${urlOf(route)}?limit=1&cursor=${encodeURIComponent(first.json.next_cursor)}`, {
        token: owner.token,
      });
      expect(next.status, next.body).toBe(200);
      expect(next.json.data[0]).not.toEqual(first.json.data[0]);
    }
  });

  it('unknown query parameters are ignored on lists, and a query string on a non-list route changes nothing', async () => {
    const res = await t.request('GET', '/v1/workspaces?foo=bar&__proto__[x]=1', { token: owner.token });
    expect(res.status, res.body).toBe(200);
    const form = await t.request('GET', `/v1/forms/${formId}?form_id=form_01jd00000000000000000000aa`, { token: key });
    expect(form.status, form.body).toBe(200);
    expect(form.json.id).toBe(formId);
  });
});

// ---------------------------------------------------------------------------------------------
// Routes, methods and headers.
// ---------------------------------------------------------------------------------------------

describe('unknown routes and wrong methods', () => {
  it('→ 404 not_found in the error shape, with x-request-id', async () => {
    const cases: [string, string][] = [
      ['GET', '/'],
      ['GET', '/v1'],
      ['GET', '/v1/nope'],
      ['POST', '/v1/nope'],
      ['GET', '/v2/forms'],
      ['GET', `/v1/forms/${formId}/nope`],
      ['PUT', `/v1/forms/${formId}`],
      ['DELETE', `/v1/forms/${formId}`],
      ['DELETE', '/v1/forms'],
      ['GET', '/v1/forms'],
      ['POST', '/v1/auth/session'],
      ['GET', '/v1/auth/login'],
      ['PUT', '/v1/workspaces'],
      ['PATCH', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`],
      ['GET', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`],
      ['GET', `/v1/${'x'.repeat(5000)}`],
      ['GET', '/v1/%00'],
      ['GET', '/../../etc/passwd'],
    ];
    await everyCase(cases, async ([method, url]) => {
      const res = await t.request(method, url, { token: owner.token });
      expectDocumentedError(res, 404, 'not_found', `${method} ${url.slice(0, 60)}`);
    });
  });

  it('a URL that is not valid percent-encoding → 404 not_found in the error shape, on /v1 and /trpc', async () => {
    await everyCase(['/v1/nope%ZZ', '/v1/%E0%A4%A', '/%', '/trpc/forms.get%ZZ'], async (url) => {
      const res = await t.request('GET', url, { token: owner.token });
      if (url.startsWith('/trpc/')) expectTrpcError(res, 404, 'not_found', url);
      else expectDocumentedError(res, 404, 'not_found', url);
    });
  });

  it('a wrong method with a body is still a 404, not a body error', async () => {
    const res = await t.request('PUT', '/v1/forms', { token: key, raw: '{' });
    expectDocumentedError(res, 404, 'not_found');
  });
});

describe('headers', () => {
  it('a plain caller request id is echoed; a hostile one is replaced', async () => {
    const echoed = await t.request('GET', '/v1/forms/nope', { token: key, headers: { 'x-request-id': 'abc-123_X.y' } });
    expect(expectDocumentedError(echoed, 404, 'form_not_found').request_id).toBe('abc-123_X.y');
    await everyCase(['a b', 'x'.repeat(200), '<script>', 'a\tb', '"quoted"'], async (hostile) => {
      const res = await t.request('GET', '/v1/forms/nope', { token: key, headers: { 'x-request-id': hostile } });
      const error = expectDocumentedError(res, 404, 'form_not_found', hostile);
      expect(error.request_id).not.toBe(hostile);
      expect(error.request_id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    });
  });

  it('garbage Authorization headers → 401 invalid_api_key, never a 500', async () => {
    await everyCase(['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer a b', `Bearer ${'x'.repeat(8000)}`, 'Bearer lfs_', 'Bearer lfk_\u00e9'], async (authorization) => {
      const res = await t.request('GET', `/v1/forms/${formId}`, { headers: { authorization } });
      expect(res.status, `${authorization.slice(0, 30)} ${res.body}`).toBe(401);
      expectDocumentedError(res, 401, authorization.startsWith('Bearer lfs_') ? 'invalid_session' : 'invalid_api_key', authorization.slice(0, 30));
    });
  });

  it('a session cookie with garbage is refused, not a 500', async () => {
    await everyCase(['lfk_session=', 'lfk_session=%00', `lfk_session=${'x'.repeat(4000)}`, 'lfk_session=lfs_nope'], async (cookie) => {
      const res = await t.request('GET', '/v1/auth/session', { headers: { cookie } });
      expectDocumentedError(res, 401, 'invalid_session', cookie.slice(0, 30));
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The same hostility over tRPC.
// ---------------------------------------------------------------------------------------------

describe('tRPC endpoint', () => {
  const createUrl = '/trpc/apiKeys.create';
  const get = (path: string, input: unknown, token?: string) =>
    t.request('GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, token ? { token } : {});

  it('malformed JSON → 400 invalid_json', async () => {
    await everyCase(MALFORMED_JSON, async ([what, raw]) => {
      expectTrpcError(await t.request('POST', createUrl, { token: owner.token, raw }), 400, 'invalid_json', what);
    });
  });

  it('malformed ?input= → 400 invalid_json', async () => {
    await everyCase(['%7B', '%7B%22form_id%22%3A%7D', 'nul', '%7B%27a%27%3A1%7D'], async (input) => {
      expectTrpcError(await t.request('GET', `/trpc/forms.get?input=${input}`, { token: key }), 400, 'invalid_json', input);
    });
  });

  it('a body just over 1 MiB → 413 payload_too_large', async () => {
    const raw = `{"workspace_id":"${owner.workspaceId}","name":"${'a'.repeat(MiB)}"}`;
    expectTrpcError(await t.request('POST', createUrl, { token: owner.token, raw }), 413, 'payload_too_large');
  });

  it('other content types → 415 unsupported_media_type', async () => {
    await everyCase(OTHER_CONTENT_TYPES, async ([contentType, raw]) => {
      const res = await t.request('POST', createUrl, { token: owner.token, raw, headers: { 'content-type': contentType } });
      expectTrpcError(res, 415, 'unsupported_media_type', contentType);
    });
  });

  it('JSON that is not an object, and an empty body → 400 invalid_request', async () => {
    await everyCase([...NON_OBJECT_JSON, ['empty', ''] as [string, string]], async ([what, raw]) => {
      expectTrpcError(await t.request('POST', createUrl, { token: owner.token, raw }), 400, 'invalid_request', what);
    });
  });

  it('lone surrogates, control characters, overlong names and unknown fields → 400 with details', async () => {
    const raw = `{"workspace_id":"${owner.workspaceId}","name":"x\\ud800"}`;
    const surrogate = expectTrpcError(await t.request('POST', createUrl, { token: owner.token, raw }), 400, 'invalid_request');
    expect(surrogate.details?.map((d) => d.path)).toContain('name');
    await everyCase(['a\u0000b', 'k'.repeat(65), 42], async (name) => {
      const res = await t.request('POST', createUrl, { token: owner.token, body: { workspace_id: owner.workspaceId, name } });
      expect(expectTrpcError(res, 400, 'invalid_request', JSON.stringify(name).slice(0, 20)).details?.map((d) => d.path)).toContain('name');
    });
    const unknown = await t.request('POST', createUrl, { token: owner.token, body: { workspace_id: owner.workspaceId, extra: 1 } });
    expectTrpcError(unknown, 400, 'invalid_request', 'unknown field');
    const dup = await t.request('POST', '/trpc/forms.create', {
      token: key,
      body: { name: 'F', schema: [{ name: 'a', type: 'text' }, { name: 'a', type: 'text' }] },
    });
    expect(expectTrpcError(dup, 400, 'invalid_request', 'duplicate').details?.map((d) => d.path)).toContain('schema.1.name');
  });

  it('ids of the wrong shape → 404 of that resource', async () => {
    // Each slot gets an id of another type (never its own: a real one would act on it).
    const slots: [string, 'query' | 'mutation', string, (id: string) => Record<string, unknown>, string, string][] = [
      ['forms.get', 'query', keyId, (id) => ({ form_id: id }), key, 'form_not_found'],
      ['forms.update', 'mutation', keyId, (id) => ({ form_id: id, name: 'x' }), key, 'form_not_found'],
      ['apiKeys.list', 'query', member.userId, (id) => ({ workspace_id: id }), owner.token, 'workspace_not_found'],
      ['apiKeys.revoke', 'mutation', formId, (id) => ({ workspace_id: owner.workspaceId, key_id: id }), owner.token, 'api_key_not_found'],
      ['members.remove', 'mutation', formId, (id) => ({ workspace_id: owner.workspaceId, user_id: id }), owner.token, 'member_not_found'],
    ];
    await everyCase(slots, async ([path, kind, otherTypeId, input, token, code]) => {
      await everyCase(badIds(otherTypeId), async ([what, id]) => {
        const value = decodeURIComponentSafe(id);
        const res =
          kind === 'query'
            ? await get(path, input(value), token)
            : await t.request('POST', `/trpc/${path}`, { token, body: input(value) });
        expectTrpcError(res, 404, code, `${path} ${what}`);
      });
    });
  });

  it('limit and cursor out of range → 400 invalid_request', async () => {
    await everyCase([{ limit: 0 }, { limit: 101 }, { limit: 'abc' }, { limit: 1.5 }, { cursor: 'bogus' }, { cursor: 5 }], async (input) => {
      const res = await get('workspaces.list', input, owner.token);
      const error = expectTrpcError(res, 400, 'invalid_request', JSON.stringify(input));
      expect(error.details?.map((d) => d.path)).toContain(Object.keys(input)[0]);
    });
  });

  it('unknown procedures and wrong methods → 404 not_found', async () => {
    const cases: [string, string, RequestOptions][] = [
      ['POST', '/trpc/nope.nope', { body: {} }],
      ['GET', '/trpc/nope', {}],
      ['GET', '/trpc/apiKeys', {}],
      ['GET', `/trpc/apiKeys.create?input=${encodeURIComponent(JSON.stringify({ workspace_id: owner.workspaceId }))}`, {}],
      ['POST', '/trpc/forms.get', { body: { form_id: formId } }],
      ['GET', '/trpc/__proto__.toString', {}],
      ['GET', `/trpc/${'x'.repeat(5000)}`, {}],
    ];
    await everyCase(cases, async ([method, url, o]) => {
      const res = await t.request(method, url, { token: owner.token, ...o });
      expectTrpcError(res, 404, 'not_found', `${method} ${url.slice(0, 50)}`);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Issue 11: one line where one line is meant; URLs stored normalised; every value fits its column.
// ---------------------------------------------------------------------------------------------

describe('issue 11: single-line strings, stored URLs, column limits', () => {
  /** Line breaks and controls that trimming or the URL parser once dropped or let through. */
  const NOT_ONE_LINE = ['a\r\nBcc: x@example.com', 'a\nb', 'a\rb', 'a\tb', 'a\u0085b', 'a\u009bb', 'a\u2028b', 'a\n', '\ta'];

  it('every text field of every body route refuses line breaks, tabs and C1 controls → 400 naming it', async () => {
    const withText = bodyRoutes.filter((r) => BODY_CASES[r.procedure]?.textField);
    expect(withText.length).toBeGreaterThan(0);
    await everyCase(
      withText.flatMap((route) => NOT_ONE_LINE.map((bad) => [route, bad] as const)),
      async ([route, bad]) => {
        const c = BODY_CASES[route.procedure]!;
        const res = await t.request(route.method, c.url(), opts(c, { body: { ...c.valid(), [c.textField!]: bad } }));
        expectInvalid(res, c.textField!, `${route.method} ${route.path} ${JSON.stringify(bad)}`);
      },
    );
  });

  it('emails refuse them too: sign-up, members.add and notify_email', async () => {
    await everyCase(['\n', '\r\n', '\t', '\u0085'], async (bad) => {
      const what = JSON.stringify(bad);
      expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: `${freshEmail()}${bad}`, password: PASSWORD } }), 'email', what);
      expectInvalid(
        await t.request('POST', `/v1/workspaces/${owner.workspaceId}/members`, { token: owner.token, body: { email: `${bad}${stranger.email}` } }),
        'email',
        what,
      );
      expectInvalid(
        await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { notify_email: `a${bad}@example.com` } }),
        'notify_email',
        what,
      );
    });
  });

  it('the form name "Contact\\r\\nBcc: x" → 400 on tRPC create and update too', async () => {
    const name = 'Contact\r\nBcc: x';
    const created = await t.request('POST', '/trpc/forms.create', { token: key, body: { ...formBody, name } });
    expect(expectTrpcError(created, 400, 'invalid_request').details?.map((d) => d.path)).toContain('name');
    const updated = await t.request('POST', '/trpc/forms.update', { token: key, body: { form_id: formId, name } });
    expect(expectTrpcError(updated, 400, 'invalid_request').details?.map((d) => d.path)).toContain('name');
  });

  it('redirect_url and allowed_origins with a tab, CR or LF → 400 naming them; nothing stored', async () => {
    const [before] = await t.sql<{ redirect_url: string | null }>('select redirect_url from forms where id = ?', [formId]);
    await everyCase(['\t', '\r', '\n', '\r\n', '\u0000', '\u0085'], async (bad) => {
      const what = JSON.stringify(bad);
      const url = `https://example.com/th${bad}anks`;
      expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, redirect_url: url } }), 'redirect_url', what);
      expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { redirect_url: url } }), 'redirect_url', what);
      expectInvalid(
        await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { allowed_origins: [`https://exa${bad}mple.com`] } }),
        'allowed_origins.0',
        what,
      );
    });
    const [after] = await t.sql<{ redirect_url: string | null }>('select redirect_url from forms where id = ?', [formId]);
    expect(after).toEqual(before);
  });

  it('an IDN host and a unicode path are stored as punycode and percent-encoding', async () => {
    const res = await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { redirect_url: 'https://例え.jp/merci-✓' } });
    expect(res.status, res.body).toBe(200);
    expect(res.json.redirect_url).toBe('https://xn--r8jz45g.jp/merci-%E2%9C%93');
    const [row] = await t.sql<{ redirect_url: string }>('select redirect_url from forms where id = ?', [formId]);
    expect(row!.redirect_url).toBe('https://xn--r8jz45g.jp/merci-%E2%9C%93');
  });

  it('submissions: a line break in a single-line field, or ESC in a textarea → 422 naming the field', async () => {
    const url = `/v1/forms/${openFormId}/submissions`;
    await everyCase(
      [
        [{ email: 'a@example.com\r\nBcc: x@example.com' }, 'email'],
        [{ email: '\ta@example.com' }, 'email'],
        [{ message: 'fine\n\u001b[2Jnot fine' }, 'message'],
        [{ message: 'c1 \u009b31m' }, 'message'],
      ] as const,
      async ([data, field]) => {
        const res = await t.request('POST', url, { body: data, headers: { origin: ORIGIN } });
        const error = expectDocumentedError(res, 422, 'validation_failed', JSON.stringify(data));
        expect(error.details).toEqual([{ path: field, message: expect.any(String) }]);
      },
    );
  });

  it('a sign-up name of 89 to 100 characters → 201 (its workspace name is cut to fit); 101 → 400', async () => {
    await everyCase([89, 95, 100], async (length) => {
      const res = await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: PASSWORD, name: 'n'.repeat(length) } });
      expect(res.status, `${length} → ${res.body.slice(0, 300)}`).toBe(201);
      expect(res.json.workspace.name.length).toBeLessThanOrEqual(100);
    });
    expectInvalid(
      await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: PASSWORD, name: 'n'.repeat(101) } }),
      'name',
    );
  });

  it('a redirect_url that overflows its column only once percent-encoded → 400, never a 500', async () => {
    const url = `https://example.com/${'✓'.repeat(300)}`;
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { redirect_url: url } }), 'redirect_url');
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, redirect_url: url } }), 'redirect_url');
  });
});

// ---------------------------------------------------------------------------------------------
// The submission path's limits hold on every door, and nothing after a stored submission fails.
// ---------------------------------------------------------------------------------------------

describe('submission limits on every transport, and the answer after a stored submission', () => {
  const trpcSubmit = (data: unknown) =>
    t.request('POST', '/trpc/submissions.create', { body: { form_id: openFormId, data }, headers: { origin: ORIGIN } });
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('/trpc/submissions.create over 64 KiB of values → 413 payload_too_large, as on REST', async () => {
    expectTrpcError(await trpcSubmit({ message: 'a'.repeat(600_000) }), 413, 'payload_too_large', '600 KB');
    expectTrpcError(await trpcSubmit({ message: 'a'.repeat(64 * 1024) }), 413, 'payload_too_large', 'just over');
  });

  it('deeply nested values never overflow a stack: 422 within the limit, 413 beyond it, on both doors', async () => {
    const within = `{"message":${nested(30_000)}}`;
    const restWithin = await t.request('POST', `/v1/forms/${openFormId}/submissions`, { raw: within, headers: { origin: ORIGIN } });
    expectDocumentedError(restWithin, 422, 'validation_failed', 'REST within');
    const trpcWithin = await t.request('POST', '/trpc/submissions.create', {
      raw: `{"form_id":"${openFormId}","data":${within}}`,
      headers: { origin: ORIGIN },
    });
    expectTrpcError(trpcWithin, 422, 'validation_failed', 'tRPC within');
    const beyond = await t.request('POST', '/trpc/submissions.create', {
      raw: `{"form_id":"${openFormId}","data":{"message":${nested(200_000)}}}`,
      headers: { origin: ORIGIN },
    });
    expectTrpcError(beyond, 413, 'payload_too_large', 'tRPC beyond');
  });

  it('a tRPC batch of 200 calls → 400 batch_too_large, and none of them runs', async () => {
    const before = await t.sql<{ n: number }>('select count(*)::int as n from submissions where form_id = ?', [openFormId]);
    const calls = 200;
    const body = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { form_id: openFormId, data: { message: 'hi' } }]));
    const paths = Array.from({ length: calls }, () => 'submissions.create').join(',');
    expectTrpcError(await t.request('POST', `/trpc/${paths}?batch=1`, { body, headers: { origin: ORIGIN } }), 400, 'batch_too_large');
    const after = await t.sql<{ n: number }>('select count(*)::int as n from submissions where form_id = ?', [openFormId]);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('an HTML form post to a form whose redirect_url was stored raw → 303 to a valid Location, never a 500', async () => {
    const res = await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, allowed_origins: [ORIGIN] } });
    await t.sql('update forms set redirect_url = ? where id = ?', ['https://例え.jp/merci-✓', res.json.id]);
    const post = await t.request('POST', `/v1/forms/${res.json.id}/submissions`, {
      raw: 'email=a%40example.com',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(post.status, post.body).toBe(303);
    expect(post.headers.location).toBe('https://xn--r8jz45g.jp/merci-%E2%9C%93');
  });
});

describe('bytes that are not a well-formed HTTP request (raw connections)', () => {
  let port: number;
  beforeAll(async () => {
    port = Number(new URL(await t.server.listen()).port);
  });

  const host = 'Host: lfk.test\r\n';
  const cases: [string, number, string, string][] = [
    ['Content-Length and Transfer-Encoding together', 400, 'invalid_request', `POST /v1/forms HTTP/1.1\r\n${host}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['a chunk size that is not hex', 400, 'invalid_request', `POST /v1/forms HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
    ['a method with a forbidden character', 400, 'invalid_request', `G@T /healthz HTTP/1.1\r\n${host}\r\n`],
    ['a NUL in the path', 400, 'invalid_request', `GET /v1/\0forms HTTP/1.1\r\n${host}\r\n`],
    ['a folded header line', 400, 'invalid_request', `GET /healthz HTTP/1.1\r\n${host}X-A: a\r\n b\r\n\r\n`],
    ['an HTTP version that does not exist', 400, 'invalid_request', `GET /healthz HTTP/7.1\r\n${host}\r\n`],
    ['the HTTP/2 preface on an HTTP/1.1 port', 400, 'invalid_request', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['a 20 KB path', 431, 'headers_too_large', `GET /v1/${'a'.repeat(20 * 1024)} HTTP/1.1\r\n${host}\r\n`],
  ];

  it.each(cases)('%s → %i %s in lfk\'s shape', async (_name, status, code, raw) => {
    const res = await rawExchange(port, (socket) => void socket.write(raw));
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error: { code, message: expect.any(String), request_id: res.headers['x-request-id'] } });
  });
});

// ---------------------------------------------------------------------------------------------
// Verification link posts, forged Host headers, secrets written strangely in URLs
// ---------------------------------------------------------------------------------------------

describe('verification link posts, forged hosts, strangely written secrets', () => {
  const pageCode = (res: Res) => /<meta name="lfk-error-code" content="([a-z_]+)">/.exec(res.body)?.[1];

  it('a verification link posted or probed with a token of the wrong shape → a 404 page, never a 500', async () => {
    await everyCase([...badIds(keyId), ['an unknown token', `lfv_${'A'.repeat(43)}`] as [string, string]], async ([what, token]) => {
      for (const method of ['POST', 'HEAD']) {
        const res = await t.request(method, `/v1/email-verifications/${token}`);
        expect(res.status, `${method} ${what}`).toBe(404);
        expect(res.headers['content-type'], `${method} ${what}`).toMatch(/^text\/html/);
        if (method === 'POST') expect(pageCode(res), what).toBe('not_found');
      }
    });
  });

  it('a verification post with a body that is not a form post, or too big → 415 / 413 pages', async () => {
    const url = `/v1/email-verifications/lfv_${'A'.repeat(43)}`;
    const cases: [string, RequestOptions, number, string][] = [
      ['text/plain', { raw: 'verify', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
      ['multipart', { raw: '--x--', headers: { 'content-type': 'multipart/form-data; boundary=x' } }, 415, 'unsupported_media_type'],
      ['2 KiB form', { raw: `a=${'x'.repeat(2048)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 413, 'payload_too_large'],
      ['JSON', { raw: '{"a":', headers: { 'content-type': 'application/json' } }, 415, 'unsupported_media_type'],
    ];
    await everyCase(cases, async ([what, options, status, code]) => {
      const res = await t.request('POST', url, options);
      expect(res.status, what).toBe(status);
      expect(res.headers['content-type'], what).toMatch(/^text\/html/);
      expect(pageCode(res), what).toBe(code);
      expect(res.headers['x-request-id'], what).toEqual(expect.any(String));
    });
  });

  it('a cookie state change with a hostile Host header → 403 csrf_failed, never a 500', async () => {
    const hosts = ['evil.example', 'lfk.test.evil.example', 'lfk.test:80@evil.example', '[::1]', 'localhost', '127.0.0.1:80', 'LFK.TEST', ''];
    await everyCase(hosts, async (host) => {
      const res = await t.request('POST', '/v1/workspaces', {
        headers: { cookie: `lfk_session=${owner.token}`, host, origin: `http://${host}` },
        body: { name: 'forged' },
      });
      expectDocumentedError(res, 403, 'csrf_failed', `Host ${JSON.stringify(host)}`);
    });
  });

  it('URLs with broken or nested escapes around a secret prefix → a 4xx in the error shape, never a 500', async () => {
    const urls = [
      '/v1/nowhere/lfk%5',
      '/v1/nowhere/lfk%255',
      '/v1/nowhere/%5Cu006',
      '/v1/nowhere/lfk_%',
      '/v1/nowhere/%25%25%25lfk_',
      `/v1/nowhere/${'%25'.repeat(2000)}5F`,
      `/v1/nowhere/${'lfk_'.repeat(2000)}`,
      '/trpc/forms.get?input=%22%5Cu006',
    ];
    await everyCase(urls, async (url) => {
      const res = await t.request('GET', url, { token: owner.token });
      expect(res.status, url.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(res.status, url.slice(0, 60)).toBeLessThan(500);
      expect(res.json?.error, url.slice(0, 60)).toBeDefined();
    });
  });
});
