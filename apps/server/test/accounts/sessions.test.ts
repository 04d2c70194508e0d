/**
 * A person's sessions listed with when and where each was last used: the User-Agent and address a
 * request brings. The clock is the test's. Signing sessions out is
 * packages/api/src/features/sessions/sessions.test.ts's.
 */
import { PASSWORD, useTestServer } from '@lfk/server/testing';
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
      // `device` is what bowser makes of the User-Agent: here, only the browser's name.
      {
        id: expect.stringMatching(/^ses_/),
        created_at: clock.toISOString(),
        last_seen_at: clock.toISOString(),
        ip: '127.0.0.1',
        user_agent: 'Safari on a phone',
        device: 'Safari',
        current: true,
      },
      {
        id: expect.stringMatching(/^ses_/),
        created_at: expect.any(String),
        last_seen_at: expect.any(String),
        ip: '127.0.0.1',
        user_agent: 'Firefox on a laptop',
        device: 'Firefox',
        current: false,
      },
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

  it('say which browser and system each is in words, and which program', async () => {
    const me = await t.signup();
    const agents = {
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36': 'Chrome 131 on macOS',
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0': 'Firefox 133 on Linux',
      'lfk-cli/0.1.0 node/24.11.0': 'lfk-cli 0.1.0',
      'curl/8.5.0': 'curl 8.5.0',
      [`no product here ${'x'.repeat(100)}`]: `no product here ${'x'.repeat(63)}…`,
    };
    for (const agent of Object.keys(agents)) await login(me.email, agent);
    const listed = (await list(await login(me.email, 'lfk-test'))).json.data as { user_agent: string; device: string }[];
    for (const [agent, device] of Object.entries(agents)) expect(listed.find((s) => s.user_agent === agent)?.device, agent).toBe(device);
  });

  it('a long User-Agent is kept to its column', async () => {
    const me = await t.signup();
    const token = await login(me.email, 'u'.repeat(2000));
    const [row] = (await list(token, 'u'.repeat(2000))).json.data;
    expect(row.user_agent).toBe('u'.repeat(512));
  });
});
