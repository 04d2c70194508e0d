/**
 * Signing a device in from the dashboard (`lfk login --web`): the device starts a request and polls;
 * a signed-in person approves or denies it by its short code; the device gets a session of its own.
 */
import { createHash } from 'node:crypto';
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

/** Lets the next poll through at once, as if the device had waited its interval. */
const forgetLastPoll = (deviceCode: string) =>
  t.sql('update device_logins set last_polled_at = null where device_code_hash = ?', [createHash('sha256').update(deviceCode).digest('hex')]);

describe('a device sign-in', () => {
  it('start → pending → approved by a person → the device gets a working session, once', async () => {
    const owner = await t.signup();
    const started = await start('lfk CLI on build-box');
    expect(started.device_code).toMatch(/^lfd_[0-9A-Za-z]{43}$/);
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    // The test server is configured with LFK_PUBLIC_URL=http://lfk.test: links use it.
    // No link carries the code: the person types it from the device's screen.
    expect(started.verification_url).toBe('http://lfk.test/device');
    expect(JSON.stringify(started)).not.toContain('?code=');
    expect(started).toMatchObject({ expires_in: 600, interval: 5 });

    expectError(await poll(started.device_code), 400, 'authorization_pending');

    const shown = await t.request('GET', `/v1/auth/device-logins/${started.user_code}`, { token: owner.token });
    expect(shown.status, shown.body).toBe(200);
    expect(shown.json).toMatchObject({ user_code: started.user_code, device_name: 'lfk CLI on build-box', state: 'pending' });

    const approved = await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: owner.token });
    expect(approved.status, approved.body).toBe(200);
    expect(approved.json.state).toBe('approved');

    const got = await poll(started.device_code);
    expect(got.status, got.body).toBe(200);
    expect(got.json.user.id).toBe(owner.userId);
    expect(got.json.session_token).toMatch(/^lfs_/);
    expect(got.headers['set-cookie']).toBeUndefined();
    const session = await t.request('GET', '/v1/auth/session', { token: got.json.session_token });
    expect(session.status).toBe(200);
    expect(session.json.user.id).toBe(owner.userId);

    // The device code is spent: a second poll gets nothing.
    expectError(await poll(started.device_code), 404, 'device_login_not_found');
  });

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
    expect(shown.json).toMatchObject({ device_name: 'lfk CLI on your laptop', requested_ip: '127.0.0.1', requested_user_agent: 'curl/8.5.0' });
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
      expect(data).toEqual({ device_name: 'lfk CLI on your laptop', requested_ip: '127.0.0.1', requested_user_agent: 'curl/8.5.0', decided_from_ip: '127.0.0.1' });
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

  it('a device that polls faster than its interval is told to wait, and nothing else changes', async () => {
    const started = await start();
    expectError(await poll(started.device_code), 400, 'authorization_pending');
    const fast = await poll(started.device_code);
    expectError(fast, 429, 'rate_limited');
    expect(fast.headers['retry-after']).toBe('5');
    await forgetLastPoll(started.device_code);
    expectError(await poll(started.device_code), 400, 'authorization_pending');
  });

  it('the code is read however it is typed: lower case, without the dash, with spaces', async () => {
    const owner = await t.signup();
    const started = await start();
    const typed = ` ${started.user_code.toLowerCase().replace('-', ' ')} `;
    const shown = await t.request('GET', `/v1/auth/device-logins/${encodeURIComponent(typed)}`, { token: owner.token });
    expect(shown.status, shown.body).toBe(200);
    expect(shown.json.user_code).toBe(started.user_code);
  });

  it('denied: the device is told so, and the request cannot then be approved', async () => {
    const owner = await t.signup();
    const started = await start();
    const denied = await t.request('POST', `/v1/auth/device-logins/${started.user_code}/deny`, { token: owner.token });
    expect(denied.status, denied.body).toBe(200);
    expect(denied.json.state).toBe('denied');
    expectError(await poll(started.device_code), 403, 'device_login_denied');
    const late = await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: owner.token });
    expectError(late, 409, 'device_login_decided');
    expectError(await poll(started.device_code), 403, 'device_login_denied');
  });

  it('expired: the code is unknown to people, and the device is told to start again', async () => {
    const owner = await t.signup();
    const started = await start();
    await t.sql("update device_logins set expires_at = now() - interval '1 second' where user_code = ?", [started.user_code.replace('-', '')]);
    expectError(await t.request('GET', `/v1/auth/device-logins/${started.user_code}`, { token: owner.token }), 404, 'device_login_not_found');
    expectError(
      await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: owner.token }),
      404,
      'device_login_not_found',
    );
    expectError(await poll(started.device_code), 400, 'device_login_expired');
  });

  it('unknown and malformed codes are "not found"; a key cannot approve, nobody unsigned can', async () => {
    const owner = await t.signup();
    const key = await t.createKey(owner.token, owner.workspaceId);
    const started = await start();
    expectError(await poll('lfd_' + 'x'.repeat(43)), 404, 'device_login_not_found');
    expectError(await poll('not-a-code'), 404, 'device_login_not_found');
    expectError(await t.request('GET', '/v1/auth/device-logins/BCDF-GHJ1', { token: owner.token }), 404, 'device_login_not_found');
    expectError(await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: key.key }), 403, 'session_required');
    expectError(await t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`), 401, 'unauthenticated');
    expectError(await poll(started.device_code), 400, 'authorization_pending');
  });

  it('two approvals at once decide it once; two polls at once get one session', async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const started = await start();
    const decisions = await Promise.all([
      t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: owner.token }),
      t.request('POST', `/v1/auth/device-logins/${started.user_code}/approve`, { token: other.token }),
    ]);
    expect(decisions.map((r) => r.status).sort()).toEqual([200, 409]);
    const polls = await Promise.all([poll(started.device_code), poll(started.device_code)]);
    expect(polls.map((r) => r.status).sort()).toEqual([200, 404]);
    const winner = decisions.find((r) => r.status === 200)!;
    const approver = winner === decisions[0] ? owner : other;
    expect(polls.find((r) => r.status === 200)!.json.user.id).toBe(approver.userId);
    const sessions = await t.sql<{ n: number }>('select count(*)::int as n from sessions where user_id = ?', [approver.userId]);
    expect(sessions[0]!.n).toBe(2); // the sign-up's, and the device's
  });

  it('keeps only the hash of the device code', async () => {
    const started = await start();
    const rows = await t.sql<Record<string, unknown>>('select * from device_logins where user_code = ?', [started.user_code.replace('-', '')]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.device_code_hash).toBe(createHash('sha256').update(started.device_code).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(started.device_code);
  });
});

describe('guessing codes (RFC 8628 §5.1)', () => {
  const limited = useTestServer({ LFK_RATE_LIMIT_DEVICE_CODE_GUESSES: '5/1m' });

  it('codes that name nothing are counted per address and person, over REST and in tRPC batches; past the limit even the right code waits', async () => {
    const guesser = await limited.signup();
    const started = (await limited.request('POST', '/v1/auth/device-logins', { body: {} })).json as Started;
    const wrong = ['BCDF-GHJK', 'BCDF-GHJL', 'BCDF-GHJM'];
    for (const code of wrong) expectError(await limited.request('GET', `/v1/auth/device-logins/${code}`, { token: guesser.token }), 404, 'device_login_not_found');
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
    expect((await limited.sql<{ state: string }>('select state from device_logins where user_code = ?', [started.user_code.replace('-', '')]))[0]!.state).toBe('pending');
  });
});

describe('what a device sign-in shows and logs', () => {
  it('a device name with bidirectional controls is refused: it could read as another on the approval page', async () => {
    for (const name of ['lfk CLI \u202eputpal', '\u2066lfk\u2069', 'a\u200fb']) {
      const res = await t.request('POST', '/v1/auth/device-logins', { body: { device_name: name } });
      const error = expectError(res, 400, 'invalid_request');
      expect(error.details?.map((d) => d.path)).toEqual(['device_name']);
    }
    expect((await t.request('POST', '/v1/auth/device-logins', { body: { device_name: 'lfk CLI on שרת build' } })).status).toBe(201);
  });

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
      expect(lines.find((l) => l.toLowerCase().includes(shown.toLowerCase())), shown).toBeUndefined();
    }
    // The device's own poll route is not taken for a code.
    await poll(started.device_code);
    expect(t.logs.slice(from).some((l) => l.includes('/v1/auth/device-logins/token'))).toBe(true);
  });
});
