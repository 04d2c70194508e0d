/**
 * Password reset by email: the same answer for every address, a link (`lfr_…`) that works once,
 * for an hour, the newest only; opening it changes nothing; using it signs the account out
 * everywhere. Floods to one address send a few emails, and never kill the link already sent.
 */
import { emailsSentTo, expectError, linkTokenSentTo, PASSWORD, startTestServer, type TestServer, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, testClock } from '../keys/fixtures.ts';

const clock = testClock();
const t = useTestServer({}, { config: { now: clock.now } });
const NEW_PASSWORD = 'a brand new long password';

const login = (email: string, password: string) => t.request('POST', '/v1/auth/login', { body: { email, password } });
const ask = (server: TestServer, email: string) => server.request('POST', '/v1/auth/password-resets', { body: { email } });
const reset = (token: string, password: string) => t.request('POST', `/v1/auth/password-resets/${token}`, { body: { password } });
const formPost = (token: string, body: string) =>
  t.request('POST', `/v1/auth/password-resets/${token}`, { raw: body, headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } });

async function linkFor(email: string, count = 1): Promise<string> {
  const res = await ask(t, email);
  expect(res.status, res.body).toBe(202);
  return linkTokenSentTo(t, email, 'password_reset', count);
}

describe('asking for a reset link', () => {
  it('answers 202 and the same words whether or not the address has an account; only an account is emailed', async () => {
    const me = await t.signup();
    const stranger = `nobody-${Date.now()}@example.com`;
    const known = await ask(t, me.email);
    const unknown = await ask(t, stranger);
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(unknown.json).toEqual(known.json);
    expect(known.json.message).toMatch(/^If an account uses this address/);
    await linkTokenSentTo(t, me.email, 'password_reset');
    expect(emailsSentTo(t, stranger)).toEqual([]);
    expect(await t.count('outbox_emails where "to" = ?', [stranger])).toBe(0);
    expect(await t.count('password_resets r join users u on u.id = r.user_id where u.email = ?', [me.email])).toBe(1);
    // The address is matched as sign-up stored it: whatever the case it is typed in.
    expect((await ask(t, me.email.toUpperCase())).status).toBe(202);
    await linkTokenSentTo(t, me.email, 'password_reset', 2);
  });

  it('a malformed address is a 400 naming email, as everywhere', async () => {
    expectError(await ask(t, 'not an address'), 400, 'invalid_request');
  });
});

describe('the link', () => {
  it('opening it (GET, HEAD) shows a form for the account and changes nothing', async () => {
    const me = await t.signup();
    const token = await linkFor(me.email);
    for (const method of ['GET', 'HEAD', 'GET']) {
      const page = await t.request(method, `/v1/auth/password-resets/${token}`);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      if (method === 'GET') {
        expect(page.body).toContain(me.email);
        expect(page.body).toContain('autocomplete="new-password"');
        expect(page.body).toContain(`action="${token}"`);
      }
    }
    expect((await login(me.email, PASSWORD)).status).toBe(200);
    expect(await t.count('password_resets r join users u on u.id = r.user_id where u.email = ?', [me.email])).toBe(1);
  });

  it('sets the password once: every session signed out, the old password refused, a notice emailed, the address verified', async () => {
    const me = await t.signup(undefined, { confirmed: false });
    const other = (await login(me.email, PASSWORD)).json.session_token as string;
    const token = await linkFor(me.email);
    expect((await reset(token, NEW_PASSWORD)).status).toBe(204);
    for (const session of [me.token, other]) expectError(await t.request('GET', '/v1/auth/session', { token: session }), 401, 'invalid_session');
    expectError(await login(me.email, PASSWORD), 401, 'invalid_credentials');
    const fresh = await login(me.email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect(fresh.json.user.email_verified).toBe(true);
    const notice = await emailsSentTo(t, me.email, 'password_changed');
    expect(notice).toHaveLength(1);
    // Used: the same 404 for the link, whichever way it is used again.
    expectError(await reset(token, 'yet another long password'), 404, 'not_found');
    expect((await t.request('GET', `/v1/auth/password-resets/${token}`)).status).toBe(404);
    expect((await login(me.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('a sign-in approved for a device but not collected yet is taken back too', async () => {
    const me = await t.signup();
    const device = await t.request('POST', '/v1/auth/device-logins', { body: { device_name: 'attacker laptop' } });
    expect((await t.request('POST', `/v1/auth/device-logins/${device.json.user_code}/approve`, { token: me.token })).status).toBe(200);
    const token = await linkFor(me.email);
    expect((await reset(token, NEW_PASSWORD)).status).toBe(204);
    expectError(await t.request('POST', '/v1/auth/device-logins/token', { body: { device_code: device.json.device_code } }), 403, 'device_login_denied');
  });

  it("the page's form post answers pages: a refused password shows the form again and keeps the link", async () => {
    const me = await t.signup();
    const token = await linkFor(me.email);
    const short = await formPost(token, 'password=short');
    expect(short.status).toBe(400);
    expect(short.headers['content-type']).toMatch(/^text\/html/);
    expect(short.body).toContain('The password was not changed');
    expect(short.body).toContain('autocomplete="new-password"');
    const done = await formPost(token, `username=${encodeURIComponent(me.email)}&password=${encodeURIComponent(NEW_PASSWORD)}`);
    expect(done.status).toBe(200);
    expect(done.body).toContain('Password changed');
    expect(done.body).toContain('href="http://lfk.test/sign-in"');
    expect((await login(me.email, NEW_PASSWORD)).status).toBe(200);
    const again = await formPost(token, `password=${encodeURIComponent(NEW_PASSWORD)}`);
    expect(again.status).toBe(404);
    expect(again.body).toContain('<meta name="lfk-error-code" content="not_found">');
  });

  it('a newer link replaces the older one', async () => {
    const me = await t.signup();
    const first = await linkFor(me.email);
    const second = await linkFor(me.email, 2);
    expect(second).not.toBe(first);
    expectError(await reset(first, NEW_PASSWORD), 404, 'not_found');
    expect((await reset(second, NEW_PASSWORD)).status).toBe(204);
  });

  it('stops working after an hour', async () => {
    const me = await t.signup();
    const token = await linkFor(me.email);
    clock.advance(HOUR);
    try {
      expect((await t.request('GET', `/v1/auth/password-resets/${token}`)).status).toBe(404);
      expectError(await reset(token, NEW_PASSWORD), 404, 'not_found');
    } finally {
      clock.advance(-HOUR);
    }
    expect((await login(me.email, PASSWORD)).status).toBe(200);
  });

  it('unknown, malformed and other kinds of tokens are the same 404, and change nothing', async () => {
    const me = await t.signup();
    const { key } = await t.createKey(me.token, me.workspaceId);
    for (const token of [`lfr_${'A'.repeat(43)}`, 'lfr_short', 'x', me.token, key, `lfv_${'A'.repeat(43)}`]) {
      expect((await t.request('GET', `/v1/auth/password-resets/${encodeURIComponent(token)}`)).status, token.slice(0, 6)).toBe(404);
      expectError(await reset(encodeURIComponent(token), NEW_PASSWORD), 404, 'not_found');
    }
    expect((await login(me.email, PASSWORD)).status).toBe(200);
  });

  it('two uses of one link at once: one 204, the other 404, and the password is one of the two', async () => {
    const me = await t.signup();
    const token = await linkFor(me.email);
    const answers = await Promise.all(['first long password', 'second long password'].map((p) => reset(token, p)));
    expect(answers.map((a) => a.status).sort()).toEqual([204, 404]);
    const won = answers[0]!.status === 204 ? 'first long password' : 'second long password';
    expect((await login(me.email, won)).status).toBe(200);
  });

  it('two requests at once leave one link that works, the newest only', async () => {
    const me = await t.signup();
    const answers = await Promise.all([ask(t, me.email), ask(t, me.email)]);
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    await linkTokenSentTo(t, me.email, 'password_reset', 2);
    const tokens = emailsSentTo(t, me.email, 'password_reset').map((e) => /lfr_[0-9A-Za-z]+/.exec(e.text)![0]);
    expect(await t.count('password_resets r join users u on u.id = r.user_id where u.email = ?', [me.email])).toBe(1);
    const opened = await Promise.all(tokens.map((token) => t.request('GET', `/v1/auth/password-resets/${token}`)));
    expect(opened.map((o) => o.status).sort()).toEqual([200, 404]);
  });
});

describe('limits', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ LFK_RATE_LIMIT_PASSWORD_RESET_EMAILS: '3/1h', LFK_RATE_LIMIT_PASSWORD_RESETS: '6/1h' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('a flood at one address sends 3 emails, answers every request alike, and leaves the third link working', async () => {
    const victim = await limited.signup();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await ask(limited, victim.email));
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const third = await linkTokenSentTo(limited, victim.email, 'password_reset', 3);
    expect(emailsSentTo(limited, victim.email, 'password_reset')).toHaveLength(3);
    expect((await limited.request('GET', `/v1/auth/password-resets/${third}`)).status).toBe(200);
  });

  it('one address (IP) asking too often is told to wait: 429 with Retry-After', async () => {
    // This server's budget is 6 an hour from one address; the flood above spent 5 of it.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await ask(limited, `ip-${i}-${Date.now()}@example.com`));
    expect(answers.map((a) => a.status)).toEqual([202, 429, 429]);
    expectError(answers[2]!, 429, 'rate_limited');
    expect(Number(answers[2]!.headers['retry-after'])).toBeGreaterThan(0);
  });
});
