/**
 * What the hostile-input files share: one server with an owner, a member, an outsider, a key and forms of
 * every kind; the error assertions; every body route with a valid body; and the bad values the files send.
 * Each answer must be the documented 4xx (the OpenAPI document's) in the one error shape, never a 500.
 */
import { type RestRoute, restRoutes } from '@lfk/api';
import { beforeAll, expect } from 'vitest';
import { type Account, expectDocumentedError, PASSWORD, type Res, type RequestOptions, type TestServer, useTestServer, type WireError } from '@lfk/server/testing';

export const MiB = 1024 * 1024;

export let t: TestServer;
export let owner: Account;
export let member: Account;
export let outsider: Account;
/** Only ever the subject of invitation bodies (and the caller of account deletes that are refused), so a wrongly accepted one disturbs nothing else. */
export let stranger: Account;
export let key: string;
export let keyId: string;
export let formId: string;
export let outsiderKeyId: string;
/** An unclaimed form and its claim token. */
export let unclaimed: { id: string; claimToken: string };
/** A browser-mode form that takes submissions from ORIGIN. */
export let openFormId: string;
export const ORIGIN = 'https://site.example';
/** A form of W with one webhook endpoint (`webhookId`), to a name that never resolves; nothing submits to it. */
export let hookFormId: string;
export let webhookId: string;
export const WEBHOOK_URL = 'https://hooks.lfk.invalid/hostile';

export const formBody = { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] };

/** The test file's server, on a fresh database, and the callers, keys and forms every case uses: made before the file's tests, closed after them. */
export function useWorld(): void {
  t = useTestServer();
  beforeAll(async () => {
    ({ owner, member, outsider } = await t.signupTeam());
    stranger = await t.signup();
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
    const hookForm = await t.request('POST', '/v1/forms', { token: key, body: formBody });
    if (hookForm.status !== 201) throw new Error(`form create failed: ${hookForm.status} ${hookForm.body}`);
    hookFormId = hookForm.json.id;
    const hook = await t.request('POST', `/v1/forms/${hookFormId}/webhooks`, { token: key, body: { url: WEBHOOK_URL } });
    if (hook.status !== 201) throw new Error(`webhook create failed: ${hook.status} ${hook.body}`);
    webhookId = hook.json.id;
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
      failures.push(String((error as Error).message).split('\n')[0]!.slice(0, 400));
    }
  }
  expect(failures, `${failures.length} of ${cases.length} cases failed:\n${failures.join('\n')}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Every body route, with a caller and a valid body.
// ---------------------------------------------------------------------------------------------

export interface BodyCase {
  url: () => string;
  token: () => string | undefined;
  valid: () => Record<string, unknown>;
  /** Whether an empty body is a valid input (every field optional). */
  emptyOk: boolean;
  /** A body with one unknown field. */
  unknown: () => Record<string, unknown>;
  /** The field that takes a person's text, if any, for the string checks. */
  textField?: string;
  /** A field that takes any characters (a password), but whole ones: a lone surrogate there is refused. */
  anyCharacters?: string;
  /** No text, but bytes written in an encoding (WebAuthn's base64url): the body with `value` at `path`, which any other character makes a 400 naming it. */
  encoded?: { path: string; body: (value: string) => Record<string, unknown> };
  /** A body with no text and no email: a lone surrogate where a string goes, and what it answers (it names nothing). */
  noText?: { body: () => Record<string, unknown>; answer: unknown };
}

let emailCounter = 0;
export const freshEmail = () => `hostile${++emailCounter}-${Date.now()}@example.com`;

/** The shapes of what a browser's WebAuthn calls answer, signed by nothing: refused after validation. */
export const FAKE_ASSERTION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA', userHandle: 'AAAA' },
  clientExtensionResults: {},
};
export const FAKE_REGISTRATION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'AAAA', transports: ['internal'] },
  clientExtensionResults: {},
};

export const BODY_CASES: Partial<Record<RestRoute['procedure'], BodyCase>> = {
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
  // A challenge that names no sign-in: a case that slipped through signs nobody in.
  'auth.secondFactor': {
    url: () => '/v1/auth/second-factor',
    token: () => undefined,
    valid: () => ({ challenge: `lfm_${'0'.repeat(43)}`, code: '123456' }),
    emptyOk: false,
    unknown: () => ({ challenge: `lfm_${'0'.repeat(43)}`, code: '123456', remember_device: true }),
    // Not free text, but what a person types: anything but six digits is refused.
    textField: 'code',
  },
  // Never the account's password.
  'auth.reauthenticate': {
    url: () => '/v1/auth/reauthenticate',
    token: () => stranger.token,
    valid: () => ({ password: 'not the password' }),
    emptyOk: false,
    unknown: () => ({ password: 'not the password', for: 'ever' }),
    anyCharacters: 'password',
  },
  // An assertion signed by nothing: a case that slipped through signs nobody in.
  'auth.passkeyLogin': {
    url: () => '/v1/auth/login/passkey',
    token: () => undefined,
    valid: () => ({ passkey: FAKE_ASSERTION }),
    emptyOk: false,
    unknown: () => ({ passkey: FAKE_ASSERTION, remember: true }),
    encoded: { path: 'passkey.id', body: (id) => ({ passkey: { ...FAKE_ASSERTION, id } }) },
  },
  // No passkey is being added for the stranger: a case that slipped through adds nothing.
  'twoFactor.addPasskey': {
    url: () => '/v1/auth/two-factor/passkeys',
    token: () => stranger.token,
    valid: () => ({ name: 'Laptop', credential: FAKE_REGISTRATION }),
    emptyOk: false,
    unknown: () => ({ name: 'Laptop', credential: FAKE_REGISTRATION, counter: 0 }),
    textField: 'name',
  },
  // A passkey that is not the stranger's: a case that slipped through renames nothing.
  'twoFactor.renamePasskey': {
    url: () => '/v1/auth/two-factor/passkeys/pkey_00000000000000000000000000',
    token: () => stranger.token,
    valid: () => ({ name: 'Laptop' }),
    emptyOk: false,
    unknown: () => ({ name: 'Laptop', user_id: 'usr_x' }),
    textField: 'name',
  },
  // No setup is in progress for the stranger: a case that slipped through enables nothing.
  'twoFactor.confirmTotp': {
    url: () => '/v1/auth/two-factor/totp/confirm',
    token: () => stranger.token,
    valid: () => ({ code: '123456' }),
    emptyOk: false,
    unknown: () => ({ code: '123456', secret: 'JBSWY3DPEHPK3PXP' }),
    textField: 'code',
  },
  'deviceLogins.start': {
    url: () => '/v1/auth/device-logins',
    token: () => undefined,
    valid: () => ({ device_name: 'lfk CLI' }),
    emptyOk: true,
    unknown: () => ({ device_name: 'lfk CLI', scope: 'admin' }),
    textField: 'device_name',
  },
  'deviceLogins.token': {
    url: () => '/v1/auth/device-logins/token',
    token: () => undefined,
    valid: () => ({ device_code: `lfd_${'a'.repeat(43)}` }),
    emptyOk: false,
    unknown: () => ({ device_code: `lfd_${'a'.repeat(43)}`, grant_type: 'device_code' }),
  },
  'workspaces.create': {
    url: () => '/v1/workspaces',
    token: () => owner.token,
    valid: () => ({ name: 'W' }),
    emptyOk: false,
    unknown: () => ({ name: 'W', plan: 'enterprise' }),
    textField: 'name',
  },
  'invitations.create': {
    url: () => `/v1/workspaces/${owner.workspaceId}/invitations`,
    token: () => owner.token,
    valid: () => ({ email: stranger.email, role: 'member' }),
    emptyOk: false,
    unknown: () => ({ email: stranger.email, role: 'member', is_admin: true }),
  },
  'passwordResets.request': {
    url: () => '/v1/auth/password-resets',
    token: () => undefined,
    valid: () => ({ email: freshEmail() }),
    emptyOk: false,
    unknown: () => ({ email: freshEmail(), redirect_to: 'https://evil.example' }),
  },
  // Never sent as is to a workspace it would delete: the name it types is not the workspace's.
  'workspaces.delete': {
    url: () => `/v1/workspaces/${owner.workspaceId}`,
    token: () => owner.token,
    valid: () => ({ confirm: 'Not its name' }),
    emptyOk: false,
    unknown: () => ({ confirm: 'Not its name', force: true }),
    textField: 'confirm',
  },
  // Never the account's password: a case that slipped through would delete nothing.
  'auth.deleteAccount': {
    url: () => '/v1/auth/account',
    token: () => stranger.token,
    valid: () => ({ password: 'not the password' }),
    emptyOk: false,
    unknown: () => ({ password: 'not the password', confirm: true }),
    anyCharacters: 'password',
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
  'apiKeys.update': {
    url: () => `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`,
    token: () => owner.token,
    valid: () => ({ description: 'k' }),
    emptyOk: true,
    unknown: () => ({ description: 'k', scopes: ['everything'] }),
    textField: 'description',
  },
  'forms.create': {
    url: () => '/v1/forms',
    token: () => key,
    valid: () => ({ ...formBody }),
    emptyOk: false,
    unknown: () => ({ ...formBody, state: 'unclaimed' }),
    textField: 'name',
  },
  'auth.changePassword': {
    url: () => '/v1/auth/password',
    token: () => stranger.token,
    valid: () => ({ current_password: PASSWORD, new_password: PASSWORD }),
    emptyOk: false,
    unknown: () => ({ current_password: PASSWORD, new_password: PASSWORD, email: 'x@example.com' }),
    anyCharacters: 'new_password',
  },
  'members.setRole': {
    url: () => `/v1/workspaces/${owner.workspaceId}/members/${member.userId}`,
    token: () => owner.token,
    valid: () => ({ role: 'member' }),
    emptyOk: false,
    unknown: () => ({ role: 'member', email: 'x@example.com' }),
    noText: { body: () => ({ role: 'member' }), answer: expect.objectContaining({ role: 'member' }) },
  },
  'workspaces.update': {
    url: () => `/v1/workspaces/${owner.workspaceId}`,
    token: () => owner.token,
    valid: () => ({ name: 'Renamed' }),
    emptyOk: false,
    unknown: () => ({ name: 'Renamed', owner: 'me' }),
    textField: 'name',
  },
  'forms.setRetention': {
    url: () => `/v1/forms/${formId}/retention`,
    token: () => owner.token,
    valid: () => ({ retention_days: 90 }),
    emptyOk: false,
    unknown: () => ({ retention_days: 90, spam_days: 10 }),
    noText: { body: () => ({ retention_days: null }), answer: expect.objectContaining({ retention_days: null }) },
  },
  'submissions.deleteMany': {
    url: () => `/v1/forms/${openFormId}/submissions/delete`,
    token: () => owner.token,
    valid: () => ({ ids: ['sub_00000000000000000000000000'] }),
    emptyOk: false,
    unknown: () => ({ ids: ['sub_00000000000000000000000000'], all: true }),
    noText: { body: () => ({ ids: ['sub_\ud800'] }), answer: { deleted: 0 } },
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
  // Every refusal comes before an endpoint is made, so the form never nears its 5 endpoints.
  'webhooks.create': {
    url: () => `/v1/forms/${hookFormId}/webhooks`,
    token: () => key,
    valid: () => ({ url: WEBHOOK_URL, description: 'Orders' }),
    emptyOk: false,
    unknown: () => ({ url: WEBHOOK_URL, secret: 'whsec_chosen' }),
    textField: 'description',
  },
  'webhooks.update': {
    url: () => `/v1/forms/${hookFormId}/webhooks/${webhookId}`,
    token: () => key,
    valid: () => ({ description: 'Orders' }),
    emptyOk: true,
    unknown: () => ({ description: 'Orders', secret: 'whsec_chosen' }),
    textField: 'description',
  },
  // A dry run: it counts and queues nothing. Its only strings are times, refused when not one.
  'webhooks.recover': {
    url: () => `/v1/forms/${hookFormId}/webhooks/${webhookId}/recover`,
    token: () => owner.token,
    valid: () => ({ since: new Date(Date.now() - 3_600_000).toISOString(), dry_run: true }),
    emptyOk: false,
    unknown: () => ({ since: new Date(Date.now() - 3_600_000).toISOString(), events: ['form.closed'] }),
    textField: 'since',
  },
};

// The submission route takes form posts and validates against each form's own schema: its
// hostile input has its own section below.
// A roll succeeds once per key (then 409), and has no text field: its hostile bodies are in test/keys/roll.test.ts.
export const bodyRoutes = restRoutes.filter((r) => r.from === 'body' && !r.transport && r.procedure !== 'apiKeys.roll');

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
