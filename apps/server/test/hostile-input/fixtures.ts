/**
 * What the hostile-input files share: one server with an owner, a member, an outsider, a key and forms of
 * every kind; the error assertions; every body route with a valid body; and the bad values the files send.
 * Each answer must be the documented 4xx (the OpenAPI document's) in the one error shape, never a 500.
 */
import { bindHostileWorld, type BodyCase, formBody, ORIGIN, WEBHOOK_URL } from '@lfk/api/test-tables/hostile';
import { beforeAll, expect } from 'vitest';
import { expectDocumentedError, type Res, type RequestOptions, type TestServer, useTestServer, type WireError } from '@lfk/server/testing';

export const MiB = 1024 * 1024;

export let t: TestServer;

// The world's accounts, keys and forms, and the cases' words, are the tables' (packages/api/src/test-tables/hostile.ts): each
// feature declares its body routes' cases beside its procedures, naming them; `useWorld` binds them. This module
// passes the tables' names on whole, so that a test file imports the world from here alone.
export { BODY_CASES } from '@lfk/api/test-tables';
export * from '@lfk/api/test-tables/hostile';

/** The test file's server, on a fresh database, and the callers, keys and forms every case uses: made before the file's tests, closed after them. */
export function useWorld(): void {
  t = useTestServer();
  beforeAll(async () => {
    const { owner, member, outsider } = await t.signupTeam();
    const stranger = await t.signup();
    const { key, id: keyId } = await t.createKey(owner.token, owner.workspaceId, 'hostile');
    const outsiderKeyId = (await t.createKey(outsider.token, outsider.workspaceId)).id;
    const form = await t.request('POST', '/v1/forms', { token: key, body: formBody });
    if (form.status !== 201) throw new Error(`form create failed: ${form.status} ${form.body}`);
    const formId = form.json.id;
    const anonymous = await t.request('POST', '/v1/forms', { body: { ...formBody, notify_email: 'anon@example.com' } });
    if (anonymous.status !== 201) throw new Error(`anonymous create failed: ${anonymous.status} ${anonymous.body}`);
    const unclaimed = { id: anonymous.json.id, claimToken: anonymous.json.claim_token };
    const open = await t.request('POST', '/v1/forms', {
      token: key,
      body: {
        ...formBody,
        schema: [
          { name: 'email', type: 'email' },
          { name: 'message', type: 'textarea' },
        ],
        allowed_origins: [ORIGIN],
      },
    });
    if (open.status !== 201) throw new Error(`form create failed: ${open.status} ${open.body}`);
    const openFormId = open.json.id;
    const hookForm = await t.request('POST', '/v1/forms', { token: key, body: formBody });
    if (hookForm.status !== 201) throw new Error(`form create failed: ${hookForm.status} ${hookForm.body}`);
    const hookFormId = hookForm.json.id;
    const hook = await t.request('POST', `/v1/forms/${hookFormId}/webhooks`, { token: key, body: { url: WEBHOOK_URL } });
    if (hook.status !== 201) throw new Error(`webhook create failed: ${hook.status} ${hook.body}`);
    const webhookId = hook.json.id;
    bindHostileWorld({ owner, member, outsider, stranger, key, keyId, formId, outsiderKeyId, unclaimed, openFormId, hookFormId, webhookId });
  });
}

// ---------------------------------------------------------------------------------------------
// Error assertions: expectDocumentedError (the harness's) and the shapes built on it.
// ---------------------------------------------------------------------------------------------

/** A 400 invalid_request whose details name `path` (exactly). */
export function expectInvalid(res: Res, path: string, what = ''): WireError {
  const error = expectDocumentedError(res, 400, 'invalid_request', what);
  expect(error.details, `${what}: details ${JSON.stringify(error.details)}`).toBeDefined();
  expect(
    error.details!.map((d) => d.path),
    `${what}: details ${JSON.stringify(error.details)}`,
  ).toContain(path);
  return error;
}

/** tRPC's envelope: `{ error: { message, code, data: { code, message, details?, request_id, httpStatus } } }`. */
export function expectTrpcError(res: Res, status: number, code: string, what = ''): WireError {
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
export async function everyCase<T>(cases: readonly T[], check: (c: T) => Promise<void>): Promise<void> {
  const failures: string[] = [];
  for (const c of cases) {
    try {
      await check(c);
    } catch (error) {
      failures.push(
        String((error as Error).message)
          .split('\n')[0]!
          .slice(0, 400),
      );
    }
  }
  expect(failures, `${failures.length} of ${cases.length} cases failed:\n${failures.join('\n')}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Every body route, with a caller and a valid body: BODY_CASES, the tables'.
// ---------------------------------------------------------------------------------------------

export function opts(c: BodyCase, extra: RequestOptions = {}): RequestOptions {
  const token = c.token();
  return { ...(token ? { token } : {}), ...extra };
}

export const MALFORMED_JSON: [string, string | Buffer][] = [
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

export const NON_OBJECT_JSON: [string, string][] = [
  ['an array', '[{"name":"x"}]'],
  ['an empty array', '[]'],
  ['a string', '"name"'],
  ['a number', '42'],
  ['true', 'true'],
  ['null', 'null'],
];

export const OTHER_CONTENT_TYPES: [string, string][] = [
  ['text/plain', '{"name":"x"}'],
  ['application/xml', '<name>x</name>'],
  ['application/x-www-form-urlencoded', 'name=x&email=a%40example.com'],
  ['multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--XyZ--\r\n'],
  ['text/html', '<b>x</b>'],
  ['application/octet-stream', 'name=x'],
  ['', '{"name":"x"}'], // an empty content-type header
];

/** A JSON object of exactly `bytes` bytes: `{"name":"aaaa…"}`. */
export function jsonOfSize(bytes: number): string {
  const shell = '{"name":""}';
  return `{"name":"${'a'.repeat(bytes - shell.length)}"}`;
}

export const BAD_TEXT = [
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

export function badIds(otherTypeId: string): [string, string][] {
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

export function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
