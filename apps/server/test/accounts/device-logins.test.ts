/**
 * Signing a device in (`lfk login --web`), as HTTP carries it: the address and User-Agent a request
 * brings, Retry-After, the session in the body and never a cookie, codes guessed over REST and in
 * tRPC batches, and the user code kept out of the log. The rules (approving, denying, expiry, races,
 * what is stored) are packages/api/src/features/device-sign-in's.
 */
import { describe, expect, it } from 'vitest';
import { emailsSentTo, expectError, until, useTestServer } from '@lfk/server/testing';

const t = useTestServer();

interface Started {
  device_code: string;
  user_code: string;
  verification_url: string;
  expires_in: number;
  interval: number;
}

async function start(deviceName?: string): Promise<Started> {
  const res = await t.request('POST', '/v1/auth/device-logins', { body: deviceName ? { device_name: deviceName } : {} });
  expect(res.status, res.body).toBe(201);
  return res.json;
}

const poll = (deviceCode: string) => t.request('POST', '/v1/auth/device-logins/token', { body: { device_code: deviceCode } });

describe('a device sign-in over HTTP', () => {
  it('shows where and when it was asked from; each decision is in the audit log of every workspace of the person, and an approval is emailed', async () => {
    const owner = await t.signup();
    const { owner: other } = await t.signupWithKey();
    await t.addMember(other.workspaceId, owner.email, 'member');
    const res = await t.request('POST', '/v1/auth/device-logins', {
      body: { device_name: 'lfk CLI on your laptop' },
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    const started: Started = res.json;
    const shown = await t.request('GET', `/v1/auth/device-logins/${started.user_code}`, { token: owner.token });
    expect(shown.json).toMatchObject({
      device_name: 'lfk CLI on your laptop',
      requested_ip: '127.0.0.1',
      requested_user_agent: 'curl/8.5.0',
      requested_device: 'curl 8.5.0',
    });
    expect(Date.parse(shown.json.created_at)).not.toBeNaN();

    expect((await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: owner.token })).status).toBe(200);
    for (const workspace of [owner.workspaceId, other.workspaceId]) {
      const events = await t.sql<{ action: string; actor_id: string; target_type: string; data: unknown }>(
        "select action, actor_id, target_type, data from audit_events where workspace_id = ? and action like 'device_login.%'",
        [workspace],
      );
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ action: 'device_login.approved', actor_id: owner.userId, target_type: 'device_login' });
      const data = typeof events[0]!.data === 'string' ? JSON.parse(events[0]!.data) : events[0]!.data;
      expect(data).toEqual({
        device_name: 'lfk CLI on your laptop',
        requested_ip: '127.0.0.1',
        requested_user_agent: 'curl/8.5.0',
        decided_from_ip: '127.0.0.1',
      });
    }
    const [email] = await until('the sign-in email', () => {
      const sent = emailsSentTo(t, owner.email, 'device_signed_in');
      return sent.length > 0 ? sent : undefined;
    });
    expect(email!.subject).toBe('A device was signed in to your lfk account: lfk CLI on your laptop');
    expect(email!.text).toContain('from 127.0.0.1 (curl/8.5.0)');
    expect(email!.text).toContain('http://lfk.test/account');

    // A denial is recorded too, and mails nobody.
    const denied = await start('another device');
    expect((await t.request('POST', `/v1/auth/device-logins/${denied.user_code}/deny`, { token: owner.token })).status).toBe(200);
    expect(await t.count("audit_events where workspace_id = ? and action = 'device_login.denied'", [owner.workspaceId])).toBe(1);
    expect(await t.count(`outbox_emails where "to" = ? and kind = 'device_signed_in'`, [owner.email])).toBe(1);
  });

  it('a device polling too soon is answered 429 with Retry-After: its interval; its session comes in the body, never as a cookie', async () => {
    const owner = await t.signup();
    const started = await start();
    expectError(await poll(started.device_code), 400, 'authorization_pending');
    const fast = await poll(started.device_code);
    expectError(fast, 429, 'rate_limited');
    expect(fast.headers['retry-after']).toBe('5');
    expect((await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: owner.token })).status).toBe(200);
    const got = await poll(started.device_code);
    expect(got.status, got.body).toBe(200);
    expect(got.json.session_token).toMatch(/^lfs_/);
    expect(got.headers['set-cookie']).toBeUndefined();
  });
});

describe('guessing codes (RFC 8628 §5.1)', () => {
  const limited = useTestServer({ LFK_RATE_LIMIT_DEVICE_CODE_GUESSES: '5/1m' });

  it('codes that name nothing are counted per address and person, over REST and in tRPC batches; past the limit even the right code waits', async () => {
    const guesser = await limited.signup();
    const started = (await limited.request('POST', '/v1/auth/device-logins', { body: {} })).json as Started;
    const wrong = ['BCDF-GHJK', 'BCDF-GHJL', 'BCDF-GHJM'];
    for (const code of wrong)
      expectError(await limited.request('GET', `/v1/auth/device-logins/${code}`, { token: guesser.token }), 404, 'device_login_not_found');
    // A batch of 8 approvals of wrong codes: 2 more are looked up, the rest are held back.
    const paths = Array.from({ length: 8 }, () => 'deviceLogins.approve').join(',');
    const body = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [i, { user_code: `BCDF-GHK${'BCDFGHJK'[i]}` }]));
    const batch = await limited.request('POST', `/trpc/${paths}?batch=1`, { token: guesser.token, body });
    const codes = (batch.json as { error: { data: { code: string } } }[]).map((answer) => answer.error.data.code);
    expect(codes.filter((c) => c === 'device_login_not_found')).toHaveLength(2);
    expect(codes.filter((c) => c === 'rate_limited')).toHaveLength(6);
    const held = await limited.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: guesser.token });
    expectError(held, 429, 'rate_limited');
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    // Another person from the same address waits too: the address is counted as well as the person.
    const neighbour = await limited.signup();
    expectError(await limited.request('GET', `/v1/auth/device-logins/${started.user_code}`, { token: neighbour.token }), 429, 'rate_limited');
    expect((await limited.sql<{ state: string }>('select state from device_logins where user_code = ?', [started.user_code.replace('-', '')]))[0]!.state).toBe(
      'pending',
    );
  });
});

describe('what a device sign-in logs', () => {
  it('its user code, in a path, a query or a tRPC input, is not written to the log', async () => {
    const owner = await t.signup();
    const started = await start('lfk CLI');
    const from = t.logs.length;
    const bare = started.user_code.replace('-', '');
    await t.request('GET', `/v1/auth/device-logins/${started.user_code}`, { token: owner.token });
    await t.request('GET', `/v1/auth/device-logins/${bare.toLowerCase()}`, { token: owner.token });
    await t.request('GET', `/trpc/deviceLogins.get?input=${encodeURIComponent(JSON.stringify({ user_code: started.user_code }))}`, { token: owner.token });
    await t.request('GET', `/device?code=${started.user_code}`);
    await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: owner.token });
    const lines = t.logs.slice(from);
    expect(lines.filter((l) => l.includes('[user code]')).length).toBeGreaterThanOrEqual(4);
    for (const shown of [started.user_code, bare, bare.toLowerCase()]) {
      expect(
        lines.find((l) => l.toLowerCase().includes(shown.toLowerCase())),
        shown,
      ).toBeUndefined();
    }
    // The device's own poll route is not taken for a code.
    await poll(started.device_code);
    expect(t.logs.slice(from).some((l) => l.includes('/v1/auth/device-logins/token'))).toBe(true);
  });
});
