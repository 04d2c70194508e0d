/**
 * Hostile input (issue 36): 10,000 characters in every header lfk reads. The ones it stores as sent
 * (the `User-Agent`, and the address a trusted proxy forwards, which a client in its range writes
 * itself) are cut to their columns where the request is read, silently; `Idempotency-Key` has a
 * documented limit (400); the rest are read and never stored. None of them is ever a 500.
 */
import { createHash } from 'node:crypto';
import { expectDocumentedError, PASSWORD, type RequestOptions, useTestServer } from '@lfk/server/testing';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { beforeAll, describe, expect, it } from 'vitest';
import { everyCase } from './fixtures.ts';

// Node reads headers of up to 16 KiB: 10,000 characters fit, one header at a time.
const LENGTH = 10_000;
const AGENT = `Mozilla/5.0 ${'a'.repeat(LENGTH - 'Mozilla/5.0 '.length)}`;
const ADDRESS = `2001:db8::${'f'.repeat(LENGTH - '2001:db8::'.length)}`;
const LONG = { 'user-agent': AGENT, 'x-forwarded-for': ADDRESS };
const ORIGIN = 'https://site.example';

const LIMITS = ['ANONYMOUS_FORMS', 'LOGIN', 'LOGIN_FAILURES', 'KEY_FAILURES', 'BROWSER_SUBMISSIONS', 'PASSWORD_RESETS', 'DEVICE_CODE_GUESSES'];
// A client of the trusted proxy's range writes its own X-Forwarded-For; every per-address limit is on, so each counts it.
const t = useTestServer({ LFK_TRUST_PROXY: '127.0.0.1', ...Object.fromEntries(LIMITS.map((name) => [`LFK_RATE_LIMIT_${name}`, '1000/1h'])) });

const cut = { userAgent: AGENT.slice(0, TEXT_LIMITS.userAgent), ip: ADDRESS.slice(0, TEXT_LIMITS.ipAddress) };

describe('headers stored as sent are cut to fit, never refused', () => {
  it('a device sign-in started with a 10,000-character User-Agent and address → 201; both kept, cut', async () => {
    const res = await t.request('POST', '/v1/auth/device-logins', { body: { device_name: 'lfk CLI' }, headers: LONG });
    expect(res.status, res.body.slice(0, 300)).toBe(201);
    const [row] = await t.sql<{ requested_user_agent: string; requested_ip: string }>(
      'select requested_user_agent, requested_ip from device_logins where device_code_hash = ?',
      [createHash('sha256').update(res.json.device_code).digest('hex')],
    );
    expect(row).toEqual({ requested_user_agent: cut.userAgent, requested_ip: cut.ip });
    // What the person asked to approve it is shown.
    const owner = await t.signup();
    const shown = await t.request('GET', `/v1/auth/device-logins/${res.json.user_code}`, { token: owner.token });
    expect(shown.json).toMatchObject({ requested_user_agent: cut.userAgent, requested_ip: cut.ip });
  });

  it('signing up and signing in with them → 201 and 200; the session keeps them, cut', async () => {
    const signup = await t.request('POST', '/v1/auth/signup', { body: { email: `long-headers-${Date.now()}@example.com`, password: PASSWORD }, headers: LONG });
    expect(signup.status, signup.body.slice(0, 300)).toBe(201);
    const login = await t.request('POST', '/v1/auth/login', { body: { email: signup.json.user.email, password: PASSWORD }, headers: LONG });
    expect(login.status, login.body.slice(0, 300)).toBe(200);
    const listed = await t.request('GET', '/v1/auth/sessions', { token: login.json.session_token, headers: LONG });
    expect(listed.status, listed.body.slice(0, 300)).toBe(200);
    expect(listed.json.data.find((s: { current: boolean }) => s.current)).toMatchObject({ user_agent: cut.userAgent, ip: cut.ip });
  });

  it('a key used with them → 200; its last use keeps them, cut', async () => {
    const { owner, key, id } = await t.signupWithKey();
    const res = await t.request('GET', '/v1/api-keys/current', { token: key, headers: LONG });
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    await t.server.services.keyUses.flush();
    const list = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(list.json.data.find((k: { id: string }) => k.id === id)).toMatchObject({ last_used_user_agent: cut.userAgent, last_used_ip: cut.ip });
  });

  it('every per-address limit counts such an address, never a 500', async () => {
    const { owner, key } = await t.signupWithKey();
    const form = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'email', type: 'email' }], allowed_origins: [ORIGIN] },
    });
    const cases: [string, string, string, RequestOptions, number][] = [
      ['password reset', 'POST', '/v1/auth/password-resets', { body: { email: owner.email } }, 202],
      ['anonymous form', 'POST', '/v1/forms', { body: { name: 'F', schema: [{ name: 'email', type: 'email' }], notify_email: 'a@example.com' } }, 201],
      ['a refused key', 'GET', '/v1/api-keys/current', { token: `lfk_${'x'.repeat(36)}` }, 401],
      ['a wrong password', 'POST', '/v1/auth/login', { body: { email: owner.email, password: 'not the password' } }, 401],
      ['a browser submission', 'POST', `/v1/forms/${form.json.id}/submissions`, { body: { email: 'a@example.com' }, headers: { origin: ORIGIN } }, 201],
      ['a device code guess', 'POST', '/v1/auth/device-logins/ABCD-EFGH/approve', { token: owner.token }, 404],
    ];
    await everyCase(cases, async ([what, method, url, options, status]) => {
      const res = await t.request(method, url, { ...options, headers: { ...options.headers, 'x-forwarded-for': ADDRESS } });
      expect(res.status, `${what} → ${res.body.slice(0, 300)}`).toBe(status);
    });
  });
});

describe('headers with a documented limit, and headers only read', () => {
  let key: string;
  let formId: string;
  beforeAll(async () => {
    ({ key } = await t.signupWithKey());
    formId = (await t.request('POST', '/v1/forms', { token: key, body: { name: 'F', schema: [{ name: 'email', type: 'email' }], allowed_origins: [ORIGIN] } }))
      .json.id;
  });

  it('an Idempotency-Key of 10,000 characters → 400 invalid_request naming it; nothing created', async () => {
    const before = await t.count('forms');
    const res = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'F', schema: [{ name: 'email', type: 'email' }] },
      headers: { 'idempotency-key': 'k'.repeat(LENGTH) },
    });
    expect(expectDocumentedError(res, 400, 'invalid_request').details).toEqual([{ path: 'Idempotency-Key', message: expect.any(String) }]);
    expect(await t.count('forms')).toBe(before);
  });

  it('10,000 characters in any other header it reads → its ordinary answer', async () => {
    const long = 'x'.repeat(LENGTH);
    const cases: [string, string, string, RequestOptions, number][] = [
      ['origin', 'POST', `/v1/forms/${formId}/submissions`, { body: { email: 'a@example.com' }, headers: { origin: `https://${long}.example` } }, 403],
      [
        'referer',
        'POST',
        `/v1/forms/${formId}/submissions`,
        {
          raw: 'email=a%40example.com',
          headers: { origin: ORIGIN, referer: `${ORIGIN}/${long}`, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        },
        200,
      ],
      ['accept', 'POST', `/v1/forms/${formId}/submissions`, { body: { email: 'a@example.com' }, headers: { origin: ORIGIN, accept: long } }, 201],
      ['content-type', 'POST', `/v1/forms/${formId}/submissions`, { raw: '{}', headers: { origin: ORIGIN, 'content-type': `application/${long}` } }, 415],
      ['x-request-id', 'GET', '/v1/api-keys/current', { token: key, headers: { 'x-request-id': long } }, 200],
      ['sec-fetch-site', 'GET', '/v1/api-keys/current', { token: key, headers: { 'sec-fetch-site': long } }, 200],
      ['authorization', 'GET', '/v1/api-keys/current', { headers: { authorization: `Bearer ${long}` } }, 401],
      ['cookie', 'GET', '/v1/auth/session', { headers: { cookie: `lfk_session=${long}` } }, 401],
      ['host', 'GET', '/v1/api-keys/current', { token: key, headers: { host: `${long}.example` } }, 200],
    ];
    await everyCase(cases, async ([header, method, url, options, status]) => {
      const res = await t.request(method, url, options);
      expect(res.status, `${header} → ${res.body.slice(0, 300)}`).toBe(status);
    });
  });
});
