/**
 * Changing one's password: the current one is required (guesses share the login budget), and every
 * other session of the account is signed out at once; this one stays.
 */
import { expectError, PASSWORD, startTestServer, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

const t = useTestServer();
const NEW_PASSWORD = 'a brand new long password';

const login = (email: string, password: string) => t.request('POST', '/v1/auth/login', { body: { email, password } });
const change = (token: string | undefined, body: unknown) => t.request('POST', '/v1/auth/password', { ...(token ? { token } : {}), body });

describe('change password', () => {
  it('with the current password: 204, other sessions signed out, this one kept, the new password works', async () => {
    const me = await t.signup();
    const laptop = (await login(me.email, PASSWORD)).json.session_token as string;
    const phone = (await login(me.email, PASSWORD)).json.session_token as string;
    const res = await change(laptop, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(res.status, res.body).toBe(204);
    expect((await t.request('GET', '/v1/auth/session', { token: laptop })).status).toBe(200);
    for (const other of [phone, me.token]) expectError(await t.request('GET', '/v1/auth/session', { token: other }), 401, 'invalid_session');
    expectError(await login(me.email, PASSWORD), 401, 'invalid_credentials');
    expect((await login(me.email, NEW_PASSWORD)).status).toBe(200);
    // Nothing of either password is stored or logged in the clear.
    expect(t.logs.join('\n')).not.toContain(NEW_PASSWORD);
    const [row] = await t.sql<{ password_hash: string }>('select password_hash from users where id = ?', [me.userId]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('a wrong current password changes nothing and signs nobody out', async () => {
    const me = await t.signup();
    const other = (await login(me.email, PASSWORD)).json.session_token as string;
    const error = expectError(await change(me.token, { current_password: 'not the password', new_password: NEW_PASSWORD }), 400, 'invalid_request');
    expect(error.details).toEqual([{ path: 'current_password', message: 'Is not your current password.' }]);
    expect((await t.request('GET', '/v1/auth/session', { token: other })).status).toBe(200);
    expect((await login(me.email, PASSWORD)).status).toBe(200);
  });

  it('refuses a weak or malformed new password, a key and no credentials', async () => {
    const me = await t.signup();
    for (const [body, path] of [
      [{ current_password: PASSWORD, new_password: 'short' }, 'new_password'],
      [{ current_password: PASSWORD, new_password: `${'x'.repeat(12)}\ud800` }, 'new_password'],
      [{ current_password: PASSWORD }, 'new_password'],
      [{ new_password: NEW_PASSWORD }, 'current_password'],
    ] as const) {
      expect(expectError(await change(me.token, body), 400, 'invalid_request').details?.[0]?.path).toBe(path);
    }
    const { key } = await t.signupWithKey();
    expectError(await change(key, { current_password: PASSWORD, new_password: NEW_PASSWORD }), 403, 'session_required');
    expectError(await change(undefined, { current_password: PASSWORD, new_password: NEW_PASSWORD }), 401, 'unauthenticated');
  });

  it('guesses at the current password spend the account’s login budget', async () => {
    const limited = await startTestServer({ LFK_RATE_LIMIT_LOGIN_FAILURES: '2/1h' });
    try {
      const me = await limited.signup();
      const guess = () =>
        limited.request('POST', '/v1/auth/password', { token: me.token, body: { current_password: 'a wrong guess!', new_password: NEW_PASSWORD } });
      expect((await guess()).status).toBe(400);
      expect((await guess()).status).toBe(400);
      expectError(await guess(), 429, 'rate_limited');
      // The right password is refused too until the budget refills, as a login would be.
      const right = await limited.request('POST', '/v1/auth/password', { token: me.token, body: { current_password: PASSWORD, new_password: NEW_PASSWORD } });
      expectError(right, 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });
});
