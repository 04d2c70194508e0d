/**
 * Signing a device in from the dashboard (`lfk login --web`): the device starts a request and polls;
 * a signed-in person approves or denies it by its short code; the device gets a session of its own.
 * What HTTP adds stays in apps/server/test/accounts/device-logins.test.ts: the address and User-Agent a
 * request brings, Retry-After, no cookie, codes guessed over REST and in tRPC batches, the log.
 */
import { ENGINE } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { sql } from '../../../test/support/database.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { TEST_PASSWORD } from '../../testing.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

const as = (token?: string) => callerFor(services, token);
const start = async (deviceName?: unknown) => (await as()).deviceLogins.start((deviceName === undefined ? {} : { device_name: deviceName }) as never);
const poll = async (deviceCode: string) => (await as()).deviceLogins.token({ device_code: deviceCode });
const show = async (token: string, userCode: string) => (await as(token)).deviceLogins.get({ user_code: userCode });
const approve = async (token: string | undefined, userCode: string) => (await as(token)).deviceLogins.approve({ user_code: userCode });
const deny = async (token: string, userCode: string) => (await as(token)).deviceLogins.deny({ user_code: userCode });
const stored = (userCode: string) => sql<Record<string, unknown>>(services, 'select * from device_logins where user_code = ?', [userCode.replace('-', '')]);

/** Lets the next poll through at once, as if the device had waited its interval. */
const forgetLastPoll = (deviceCode: string) => sql(services, 'update device_logins set last_polled_at = null where device_code_hash = ?', [sha256(deviceCode)]);

describe(`a device sign-in (${ENGINE})`, () => {
  it('start → pending → approved by a person → the device gets a working session, once', async () => {
    const owner = await person(services);
    const started = await start('lfk CLI on build-box');
    expect(started.device_code).toMatch(/^lfd_[0-9A-Za-z]{43}$/);
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    // The test world's public URL is http://lfk.test: links use it.
    // No link carries the code: the person types it from the device's screen.
    expect(started.verification_url).toBe('http://lfk.test/device');
    expect(JSON.stringify(started)).not.toContain('?code=');
    expect(started).toMatchObject({ expires_in: 600, interval: 5 });

    await expectRefused(poll(started.device_code), 400, 'authorization_pending');

    expect(await show(owner.token, started.user_code)).toMatchObject({ user_code: started.user_code, device_name: 'lfk CLI on build-box', state: 'pending' });
    expect((await approve(owner.token, started.user_code)).state).toBe('approved');

    const got = await poll(started.device_code);
    expect(got.user.id).toBe(owner.userId);
    expect(got.session_token).toMatch(/^lfs_/);
    expect((await (await as(got.session_token)).auth.session()).user.id).toBe(owner.userId);

    // The device code is spent: a second poll gets nothing.
    await expectRefused(poll(started.device_code), 404, 'device_login_not_found');
  });

  it('a device that polls faster than its interval is told to wait, and nothing else changes', async () => {
    const started = await start();
    await expectRefused(poll(started.device_code), 400, 'authorization_pending');
    await expectRefused(poll(started.device_code), 429, 'rate_limited');
    await forgetLastPoll(started.device_code);
    await expectRefused(poll(started.device_code), 400, 'authorization_pending');
  });

  it('the code is read however it is typed: lower case, without the dash, with spaces', async () => {
    const owner = await person(services);
    const started = await start();
    const typed = ` ${started.user_code.toLowerCase().replace('-', ' ')} `;
    expect((await show(owner.token, typed)).user_code).toBe(started.user_code);
  });

  it('denied: the device is told so, and the request cannot then be approved', async () => {
    const owner = await person(services);
    const started = await start();
    expect((await deny(owner.token, started.user_code)).state).toBe('denied');
    await expectRefused(poll(started.device_code), 403, 'device_login_denied');
    await expectRefused(approve(owner.token, started.user_code), 409, 'device_login_decided');
    await expectRefused(poll(started.device_code), 403, 'device_login_denied');
  });

  it('expired: the code is unknown to people, and the device is told to start again', async () => {
    const owner = await person(services);
    const started = await start();
    await sql(services, "update device_logins set expires_at = now() - interval '1 second' where user_code = ?", [started.user_code.replace('-', '')]);
    await expectRefused(show(owner.token, started.user_code), 404, 'device_login_not_found');
    await expectRefused(approve(owner.token, started.user_code), 404, 'device_login_not_found');
    await expectRefused(poll(started.device_code), 400, 'device_login_expired');
  });

  it('unknown and malformed codes are "not found"; a key cannot approve, nobody unsigned can', async () => {
    const owner = await person(services);
    const { key } = await createKey(services, owner);
    const started = await start();
    await expectRefused(poll(`lfd_${'x'.repeat(43)}`), 404, 'device_login_not_found');
    await expectRefused(poll('not-a-code'), 404, 'device_login_not_found');
    await expectRefused(show(owner.token, 'BCDF-GHJ1'), 404, 'device_login_not_found');
    await expectRefused(approve(key, started.user_code), 403, 'session_required');
    await expectRefused(approve(undefined, started.user_code), 401, 'unauthenticated');
    await expectRefused(poll(started.device_code), 400, 'authorization_pending');
  });

  it('two approvals at once decide it once; two polls at once get one session', async () => {
    const owner = await person(services);
    const other = await person(services);
    const started = await start();
    const decisions = await Promise.all([outcome(approve(owner.token, started.user_code)), outcome(approve(other.token, started.user_code))]);
    expect([...decisions].sort()).toEqual(['409 device_login_decided', 'done']);
    let got: Awaited<ReturnType<typeof poll>> | undefined;
    const keep = (answer: Awaited<ReturnType<typeof poll>>) => {
      got = answer;
    };
    const polls = await Promise.all([0, 1].map(() => outcome(poll(started.device_code).then(keep))));
    expect(polls.sort()).toEqual(['404 device_login_not_found', 'done']);
    const approver = decisions[0] === 'done' ? owner : other;
    expect(got!.user.id).toBe(approver.userId);
    const [count] = await sql<{ n: number }>(services, 'select count(*)::int as n from sessions where user_id = ?', [approver.userId]);
    expect(count!.n).toBe(2); // the sign-up's, and the device's
  });

  it('keeps only the hash of the device code', async () => {
    const started = await start();
    const rows = await stored(started.user_code);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.device_code_hash).toBe(sha256(started.device_code));
    expect(JSON.stringify(rows)).not.toContain(started.device_code);
  });

  it("a session past its sudo window that approves a device gets no sudo mode through it: the device's session is no fresher than the approver's", async () => {
    const owner = await person(services);
    const signedInAt = new Date(Date.now() - 60 * 60_000);
    await sql(services, 'update sessions set authenticated_at = ? where user_id = ?', [signedInAt, owner.userId]);
    await expectRefused((await as(owner.token)).apiKeys.create({ workspace_id: owner.workspaceId, name: 'stale' }), 403, 'reauthentication_required');

    const started = await start();
    await approve(owner.token, started.user_code);
    const device = (await poll(started.device_code)).session_token;
    await expectRefused((await as(device)).apiKeys.create({ workspace_id: owner.workspaceId, name: 'through the device' }), 403, 'reauthentication_required');
    const [deviceSession] = await sql<{ authenticated_at: Date }>(services, 'select authenticated_at from sessions where token_hash = ?', [sha256(device)]);
    expect(new Date(deviceSession!.authenticated_at).getTime()).toBe(signedInAt.getTime());
    expect(await sql(services, 'select 1 from api_keys where workspace_id = ?', [owner.workspaceId])).toHaveLength(0);

    // Confirming who it is on the device opens sudo mode there, as on any session.
    await (await as(device)).auth.reauthenticate({ password: TEST_PASSWORD });
    expect((await (await as(device)).apiKeys.create({ workspace_id: owner.workspaceId, name: 'confirmed' })).key).toMatch(/^lfk_/);
  });

  it('a fresh approval passes on when the approver signed in, not when the device collected its session', async () => {
    const owner = await person(services);
    const started = await start();
    await approve(owner.token, started.user_code);
    const [approver] = await sql<{ authenticated_at: Date }>(services, 'select authenticated_at from sessions where user_id = ?', [owner.userId]);
    const device = (await poll(started.device_code)).session_token;
    const [deviceSession] = await sql<{ authenticated_at: Date }>(services, 'select authenticated_at from sessions where token_hash = ?', [sha256(device)]);
    expect(new Date(deviceSession!.authenticated_at).getTime()).toBe(new Date(approver!.authenticated_at).getTime());
  });
});

describe(`what a device sign-in shows (${ENGINE})`, () => {
  it('a device name with bidirectional controls is refused: it could read as another on the approval page', async () => {
    for (const name of ['lfk CLI \u202eputpal', '\u2066lfk\u2069', 'a\u200fb']) {
      await expectRefused(start(name), 400, 'invalid_request', { paths: ['device_name'], what: JSON.stringify(name) });
    }
    expect((await start('lfk CLI on שרת build')).user_code).toBeTruthy();
  });
});
