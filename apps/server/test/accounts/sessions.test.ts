/**
 * A person's sessions: listed with when and where each was last used, one signed out, or every
 * other one. The clock is the test's.
 */
import { expectError, PASSWORD, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

let clock = new Date('2026-11-25T12:00:00Z');
const t = useTestServer({}, { config: { now: () => clock } });

const login = async (email: string, userAgent: string) =>
  (await t.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD }, headers: { 'user-agent': userAgent } })).json.session_token as string;
const list = (token: string, userAgent = 'lfk-test') => t.request('GET', '/v1/auth/sessions', { token, headers: { 'user-agent': userAgent } });

describe('sessions', () => {
  it('are listed newest first, with when and where each was last used, and which is this one', async () => {
    const me = await t.signup();
    const laptop = await login(me.email, 'Firefox on a laptop');
    clock = new Date(clock.getTime() + 60_000);
    const phone = await login(me.email, 'Safari on a phone');
    const res = await list(phone, 'Safari on a phone');
    expect(res.status, res.body).toBe(200);
    expect(res.json.data).toHaveLength(3);
    expect(res.json.data.slice(0, 2)).toEqual([
      { id: expect.stringMatching(/^ses_/), created_at: clock.toISOString(), last_seen_at: clock.toISOString(), ip: '127.0.0.1', user_agent: 'Safari on a phone', current: true },
      { id: expect.stringMatching(/^ses_/), created_at: expect.any(String), last_seen_at: expect.any(String), ip: '127.0.0.1', user_agent: 'Firefox on a laptop', current: false },
    ]);
    // Used again after a while: its "last seen" moves, with where from.
    clock = new Date(clock.getTime() + 10 * 60_000);
    await list(laptop, 'Firefox 2 on a laptop');
    const again = await list(phone, 'Safari on a phone');
    expect(again.json.data[1]).toMatchObject({ last_seen_at: clock.toISOString(), user_agent: 'Firefox 2 on a laptop' });
    // Nothing of the tokens is answered.
    expect(again.body).not.toContain(laptop);
    expect(again.body).not.toContain(phone);
  });

  it('one is signed out: it stops at once; another person’s or an unknown one is 404; this one signs out', async () => {
    const me = await t.signup();
    const someone = await t.signup();
    const other = await login(me.email, 'other');
    const ids = (await list(me.token)).json.data as { id: string; current: boolean }[];
    const otherId = ids.find((s) => !s.current && s.id)!.id;
    const res = await t.request('DELETE', `/v1/auth/sessions/${otherId}`, { token: me.token });
    expect(res.status, res.body).toBe(204);
    expectError(await t.request('GET', '/v1/auth/session', { token: other }), 401, 'invalid_session');
    expectError(await t.request('DELETE', `/v1/auth/sessions/${otherId}`, { token: me.token }), 404, 'session_not_found');
    const theirs = (await list(someone.token)).json.data[0].id;
    expectError(await t.request('DELETE', `/v1/auth/sessions/${theirs}`, { token: me.token }), 404, 'session_not_found');
    expect((await t.request('GET', '/v1/auth/session', { token: someone.token })).status).toBe(200);
    for (const id of ['ses_00000000000000000000000000', 'nonsense', 'x'.repeat(300)]) {
      expectError(await t.request('DELETE', `/v1/auth/sessions/${id}`, { token: me.token }), 404, 'session_not_found');
    }
    const mine = (await list(me.token)).json.data.find((s: { current: boolean }) => s.current).id;
    expect((await t.request('DELETE', `/v1/auth/sessions/${mine}`, { token: me.token })).status).toBe(204);
    expectError(await t.request('GET', '/v1/auth/session', { token: me.token }), 401, 'invalid_session');
  });

  it('every other one is signed out at once; keys cannot list or end sessions', async () => {
    const me = await t.signup();
    const others = [await login(me.email, 'a'), await login(me.email, 'b')];
    const res = await t.request('POST', '/v1/auth/sessions/revoke-others', { token: me.token });
    expect(res.json).toEqual({ revoked: 2 });
    for (const token of others) expectError(await t.request('GET', '/v1/auth/session', { token }), 401, 'invalid_session');
    expect((await list(me.token)).json.data.map((s: { current: boolean }) => s.current)).toEqual([true]);
    const { key } = await t.signupWithKey();
    expectError(await t.request('GET', '/v1/auth/sessions', { token: key }), 403, 'session_required');
    expectError(await t.request('POST', '/v1/auth/sessions/revoke-others', { token: key }), 403, 'session_required');
  });

  it('a long User-Agent is kept to its column', async () => {
    const me = await t.signup();
    const token = await login(me.email, 'u'.repeat(2000));
    const [row] = (await list(token, 'u'.repeat(2000))).json.data;
    expect(row.user_agent).toBe('u'.repeat(512));
  });
});
