/**
 * Rate limits: anonymous form creation, login attempts and refused keys, and how they are configured.
 */
import { ConfigError, loadConfig } from '@lfk/server';
import { describe, expect, it } from 'vitest';
import { expectError, PASSWORD, useTestServer } from '@lfk/server/testing';
import { address, anonymousBody, expectRetryAfter, SCHEMA } from './forms/fixtures.ts';

describe('rate limits', () => {
  // Servers with one rate limit each turned on (test servers have them all off). One at a time,
  // each in a hook of its own: four PGlite databases starting at once on a loaded two-core machine
  // could outlast any one hook's time limit.
  const anonLimited = useTestServer({ LFK_RATE_LIMIT_ANONYMOUS_FORMS: '2/1h' });
  const loginLimited = useTestServer({ LFK_RATE_LIMIT_LOGIN: '3/1m', LFK_TRUST_PROXY: '127.0.0.1' });
  const keyFailuresLimited = useTestServer({ LFK_RATE_LIMIT_KEY_FAILURES: '3/1m', LFK_TRUST_PROXY: '127.0.0.1' });

  it('LFK_RATE_LIMIT_ANONYMOUS_FORMS: the third anonymous create is 429; keys and sessions are not limited', async () => {
    const s = anonLimited;
    for (let i = 0; i < 2; i++) {
      const res = await s.request('POST', '/v1/forms', { body: anonymousBody() });
      expect(res.status, res.body).toBe(201);
    }
    const limited = await s.request('POST', '/v1/forms', { body: anonymousBody() });
    expectError(limited, 429, 'rate_limited');
    expectRetryAfter(limited);
    expect(await s.count("forms where state = 'unclaimed'")).toBe(2);

    const { owner, key } = await s.signupWithKey();
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

    const from = (ip: string, password: string) => s.request('POST', '/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });
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

  it('LFK_RATE_LIMIT_KEY_FAILURES: after 3 guessed keys even a valid key is 429; a revoked key is no guess; sessions are unaffected', async () => {
    const s = keyFailuresLimited;
    const { owner, key, id } = await s.signupWithKey();
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
    // A revoked key is known: its refusals are its own refused uses, not guesses, and do not count here.
    for (const bad of [unknown, revoked, revoked, 'not-a-key', `lfk_${'B'.repeat(36)}`]) {
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
    expect(await s.count("forms where name = 'Held'")).toBe(0);

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
    for (const name of ['LFK_RATE_LIMIT_ANONYMOUS_FORMS', 'LFK_RATE_LIMIT_LOGIN', 'LFK_RATE_LIMIT_KEY_FAILURES', 'LFK_RATE_LIMIT_BROWSER_SUBMISSIONS']) {
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
