/**
 * Two-factor sign-in with an authenticator app (TOTP) and recovery codes, and sudo mode, through
 * the procedures, on a clock the test turns: codes are made for the step the test names, never
 * waited for.
 */
import { ENGINE, testClock } from '@lfk/testing';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { TEST_PASSWORD } from '../../testing.ts';
import { auditActions, sql } from '../../../test/support/database.ts';
import { emailsTo, linkTokenTo } from '../../../test/support/emails.ts';
import { expectRefused, outcome, wireErrorOf } from '../../../test/support/refusals.ts';
import { seedMembership } from '../../testing.ts';
import { callerFor, type Person, person, testServices } from '../../../test/world.ts';

// Mid-step, so a step before and a step after are both whole steps away from the edges.
const clock = testClock(new Date('2026-11-28T10:00:15Z'));
let services: Services;
beforeAll(async () => {
  services = await testServices({ now: clock.now });
});

const as = (token?: string) => callerFor(services, token);
/** The code an app with this secret shows `steps` steps from the clock's now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) + steps * 30 });
const login = async (email: string, password = TEST_PASSWORD) => (await as()).auth.login({ email, password });

/** An account with an authenticator app set up: its secret and recovery codes. */
async function withTotp(who?: Person) {
  const me = who ?? (await person(services));
  const started = await (await as(me.token)).twoFactor.startTotp();
  const confirmed = await (await as(me.token)).twoFactor.confirmTotp({ code: await codeAt(started.secret) });
  // The confirming code's step is taken: the next sign-in needs the next step's code.
  clock.advance(30_000);
  return { ...me, secret: started.secret, recoveryCodes: confirmed.recovery_codes! };
}

/** Signs in with the password: the challenge the answer names. */
async function challengeOf(email: string) {
  const error = await expectRefused(login(email), 401, 'second_factor_required');
  return error as typeof error & { challenge: string; factors: string[]; expires_at: string };
}

const complete = async (challenge: string, factor: { code: string } | { recovery_code: string }) => (await as()).auth.secondFactor({ challenge, ...factor });

describe(`an authenticator app (${ENGINE})`, () => {
  it('is set up by a secret and a first code; until then the password alone signs in', async () => {
    const me = await person(services);
    const caller = await as(me.token);
    const started = await caller.twoFactor.startTotp();
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.otpauth_url).toBe(`otpauth://totp/lfk:${encodeURIComponent(me.email)}?secret=${started.secret}&issuer=lfk`);
    expect((await caller.twoFactor.status()).enabled).toBe(false);
    // Abandoned here, the account is as it was.
    expect((await login(me.email)).session_token).toMatch(/^lfs_/);

    await expectRefused(caller.twoFactor.confirmTotp({ code: await codeAt(started.secret, 3) }), 401, 'invalid_second_factor');
    const confirmed = await caller.twoFactor.confirmTotp({ code: await codeAt(started.secret) });
    expect(confirmed.recovery_codes).toHaveLength(10);
    for (const code of confirmed.recovery_codes!) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/);
    expect(await caller.twoFactor.status()).toMatchObject({ enabled: true, totp: { enabled: true }, recovery_codes: { remaining: 10 } });
    await expectRefused(caller.twoFactor.startTotp(), 409, 'totp_already_enabled');
  });

  it('signs out the sessions signed in without it, and keeps the one that set it up', async () => {
    const me = await person(services);
    const elsewhere = (await login(me.email)).session_token;
    await withTotp(me);
    await expectRefused((await as(elsewhere)).auth.session(), 401, 'invalid_session');
    expect((await (await as(me.token)).auth.session()).user.email).toBe(me.email);
  });

  it('then approving a device needs a session that passed it: those from before are out, and a device they approved is refused its session', async () => {
    const me = await person(services);
    const before = (await login(me.email)).session_token;
    const device = await (await as()).deviceLogins.start({ device_name: 'lfk CLI on a laptop' });
    await (await as(before)).deviceLogins.approve({ user_code: device.user_code });
    const app = await withTotp(me);
    await expectRefused((await as()).deviceLogins.token({ device_code: device.device_code }), 403, 'device_login_denied');
    const next = await (await as()).deviceLogins.start({ device_name: 'lfk CLI on a laptop' });
    await expectRefused((await as(before)).deviceLogins.approve({ user_code: next.user_code }), 401, 'invalid_session');
    // A session that passed the second factor approves, and the device gets its session.
    const { challenge } = await challengeOf(me.email);
    const passed = await complete(challenge, { code: await codeAt(app.secret) });
    await (await as(passed.session_token)).deviceLogins.approve({ user_code: next.user_code });
    expect((await (await as()).deviceLogins.token({ device_code: next.device_code })).user.id).toBe(me.userId);
  });

  it('is never kept in the clear: the secret is sealed, the recovery codes hashed', async () => {
    const me = await withTotp();
    const [row] = await sql<{ totp_secret_sealed: string }>(services, 'select totp_secret_sealed from users where id = ?', [me.userId]);
    expect(row!.totp_secret_sealed).not.toContain(me.secret);
    const stored = JSON.stringify(await sql(services, 'select * from recovery_codes where user_id = ?', [me.userId]));
    for (const code of me.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replaceAll('-', ''));
    }
  });

  it('an enrolment left halfway expires: its first code then confirms nothing', async () => {
    const me = await person(services);
    const started = await (await as(me.token)).twoFactor.startTotp();
    clock.advance(16 * 60_000);
    await expectRefused((await as(me.token)).twoFactor.confirmTotp({ code: await codeAt(started.secret) }), 409, 'enrolment_not_found');
    expect((await (await as(me.token)).twoFactor.status()).enabled).toBe(false);
  });
});

describe(`signing in with a second factor (${ENGINE})`, () => {
  it('the password answers a challenge, not a session; a code completes it, once', async () => {
    const me = await withTotp();
    const first = await challengeOf(me.email);
    expect(first.challenge).toMatch(/^lfm_[0-9A-Za-z]{43}$/);
    expect(first.factors).toEqual(['totp', 'recovery_code']);
    expect(new Date(first.expires_at).getTime() - clock.now().getTime()).toBe(5 * 60_000);

    const code = await codeAt(me.secret);
    const signedIn = await complete(first.challenge, { code });
    expect(signedIn.user.email).toBe(me.email);
    expect((await (await as(signedIn.session_token)).auth.session()).user.id).toBe(me.userId);
    // The challenge is spent, and the code with it.
    await expectRefused(complete(first.challenge, { code }), 401, 'invalid_challenge');
    await expectRefused(complete((await challengeOf(me.email)).challenge, { code }), 401, 'invalid_second_factor');
  });

  it('takes a code from the step before or after, once each, and none older than the last taken', async () => {
    const me = await withTotp();
    // Two steps past the setup's, so the step before is one no code was taken for.
    clock.advance(60_000);
    const { challenge } = await challengeOf(me.email);
    await expectRefused(complete(challenge, { code: await codeAt(me.secret, -2) }), 401, 'invalid_second_factor');
    await expectRefused(complete(challenge, { code: await codeAt(me.secret, 2) }), 401, 'invalid_second_factor');
    // The one before, then the one after: each once.
    await complete(challenge, { code: await codeAt(me.secret, -1) });
    await complete((await challengeOf(me.email)).challenge, { code: await codeAt(me.secret, 1) });
    // The current step comes before the last one taken: refused.
    await expectRefused(complete((await challengeOf(me.email)).challenge, { code: await codeAt(me.secret) }), 401, 'invalid_second_factor');
  });

  it('a wrong code leaves the challenge for the next try; an expired challenge is refused', async () => {
    const me = await withTotp();
    const { challenge } = await challengeOf(me.email);
    await expectRefused(complete(challenge, { code: '000000' === (await codeAt(me.secret)) ? '111111' : '000000' }), 401, 'invalid_second_factor');
    await complete(challenge, { code: await codeAt(me.secret) });

    clock.advance(30_000);
    const late = await challengeOf(me.email);
    clock.advance(5 * 60_000 + 1000);
    await expectRefused(complete(late.challenge, { code: await codeAt(me.secret) }), 401, 'invalid_challenge');
  });

  it('a password reset does not skip it: the new password leads to the second factor, or a recovery code', async () => {
    const me = await withTotp();
    await (await as()).passwordResets.request({ email: me.email });
    await services.background.settle();
    const token = await linkTokenTo(services, me.email, 'password_reset');
    await (await as()).passwordResets.reset({ token, password: 'a brand new password' });
    const error = await expectRefused(login(me.email, 'a brand new password'), 401, 'second_factor_required');
    const signedIn = await complete((error as unknown as { challenge: string }).challenge, { recovery_code: me.recoveryCodes[9]! });
    expect(signedIn.user.id).toBe(me.userId);
  });

  it('refuses malformed codes and challenges with the documented errors', async () => {
    const me = await withTotp();
    const { challenge } = await challengeOf(me.email);
    for (const code of ['12345', '1234567', 'abcdef', '', '12 34 5a', '１２３４５６']) {
      await expectRefused(complete(challenge, { code }), 400, 'invalid_request', { what: JSON.stringify(code) });
    }
    await expectRefused((await as()).auth.secondFactor({ challenge } as never), 400, 'invalid_request');
    await expectRefused(
      (await as()).auth.secondFactor({ challenge, code: await codeAt(me.secret), recovery_code: me.recoveryCodes[0] } as never),
      400,
      'invalid_request',
    );
    for (const wrong of ['lfm_short', `lfm_${'A'.repeat(43)}`, 'lfs_x', 'x'.repeat(100)]) {
      await expectRefused(complete(wrong, { code: '123456' }), 401, 'invalid_challenge', { what: wrong });
    }
    // Spaces as the app groups the digits are fine.
    const code = await codeAt(me.secret);
    expect((await complete(challenge, { code: `${code.slice(0, 3)} ${code.slice(3)}` })).user.id).toBe(me.userId);
  });

  it('a recovery code signs in once, however it is typed; it is told in the audit log and by email', async () => {
    const me = await withTotp();
    const code = me.recoveryCodes[3]!;
    const { challenge } = await challengeOf(me.email);
    await complete(challenge, { recovery_code: code.toUpperCase().replaceAll('-', ' ') });
    await expectRefused(complete((await challengeOf(me.email)).challenge, { recovery_code: code }), 401, 'invalid_second_factor');
    expect((await (await as(me.token)).twoFactor.status()).recovery_codes.remaining).toBe(9);
    const events = await auditActions(services, me.workspaceId, 'two_factor.recovery_code_used');
    expect(events).toEqual([expect.objectContaining({ actor_type: 'user', actor_id: me.userId, target_id: me.userId, data: { remaining: 9 } })]);
    const emails = await emailsTo(services, me.email, 'two_factor_changed');
    expect(emails.map((e) => e.subject)).toEqual([
      'An authenticator app was set up for your lfk account',
      'A recovery code was used to sign in to your lfk account',
    ]);
    expect(emails[1]!.text).toContain('9 of its codes are left unused');
  });

  it('one recovery code sent twice at once signs in once', async () => {
    const me = await withTotp();
    const challenges = [await challengeOf(me.email), await challengeOf(me.email)];
    const outcomes = await Promise.all(challenges.map((c) => outcome(complete(c.challenge, { recovery_code: me.recoveryCodes[0]! }))));
    expect(outcomes.toSorted()).toEqual(['401 invalid_second_factor', 'done']);
  });

  it('one challenge completed twice at once with two codes signs in once', async () => {
    const me = await withTotp();
    const { challenge } = await challengeOf(me.email);
    const outcomes = await Promise.all([me.recoveryCodes[0]!, me.recoveryCodes[1]!].map((c) => outcome(complete(challenge, { recovery_code: c }))));
    expect(outcomes.toSorted()).toEqual(['401 invalid_challenge', 'done']);
    // The loser's code was not spent.
    expect((await (await as(me.token)).twoFactor.status()).recovery_codes.remaining).toBe(9);
  });

  it('new recovery codes replace the old ones', async () => {
    const me = await withTotp();
    const fresh = await (await as(me.token)).twoFactor.regenerateRecoveryCodes();
    expect(fresh.recovery_codes).toHaveLength(10);
    expect(fresh.recovery_codes).not.toContain(me.recoveryCodes[0]);
    await expectRefused(complete((await challengeOf(me.email)).challenge, { recovery_code: me.recoveryCodes[0]! }), 401, 'invalid_second_factor');
    await complete((await challengeOf(me.email)).challenge, { recovery_code: fresh.recovery_codes[0]! });
    expect(await auditActions(services, me.workspaceId, 'two_factor.recovery_codes_regenerated')).toHaveLength(1);
  });

  it('turned off, the password alone signs in again, and the recovery codes are gone', async () => {
    const me = await withTotp();
    await (await as(me.token)).twoFactor.disableTotp();
    expect((await login(me.email)).session_token).toMatch(/^lfs_/);
    expect(await (await as(me.token)).twoFactor.status()).toMatchObject({ enabled: false, totp: { enabled: false }, recovery_codes: { remaining: 0 } });
    await expectRefused((await as(me.token)).twoFactor.disableTotp(), 409, 'two_factor_not_enabled');
    await expectRefused((await as(me.token)).twoFactor.regenerateRecoveryCodes(), 409, 'two_factor_not_enabled');
  });

  it("every change is an audit event in each of the person's workspaces", async () => {
    const me = await person(services);
    const other = await person(services);
    await seedMembership(services.db, other.workspaceId, me.email, 'member');
    await withTotp(me);
    for (const workspaceId of [me.workspaceId, other.workspaceId]) {
      expect(await auditActions(services, workspaceId, 'two_factor.totp_enabled')).toEqual([
        expect.objectContaining({ actor_type: 'user', actor_id: me.userId, target_id: me.userId }),
      ]);
    }
  });
});

describe(`guessing (${ENGINE})`, () => {
  let guarded: Services;
  beforeAll(async () => {
    guarded = await testServices({ now: clock.now, rateLimits: { login_failures: { capacity: 10, windowMs: 15 * 60_000 } } });
  });

  it('100 guesses at once: at most the sign-in budget is tried, the rest are told to wait, and then the right code waits too', async () => {
    const me = await person(guarded);
    const started = await (await callerFor(guarded, me.token)).twoFactor.startTotp();
    await (await callerFor(guarded, me.token)).twoFactor.confirmTotp({ code: await codeAt(started.secret) });
    clock.advance(30_000);
    const error = await wireErrorOf((await callerFor(guarded)).auth.login({ email: me.email, password: TEST_PASSWORD }));
    const challenge = error.body.error.challenge!;
    const right = await codeAt(started.secret);
    const guesses = Array.from({ length: 100 }, (_, i) => String(100000 + i * 7919).slice(0, 6)).filter((g) => g !== right);
    const outcomes = await Promise.all(guesses.map(async (code) => outcome((await callerFor(guarded)).auth.secondFactor({ challenge, code }))));
    const wrong = outcomes.filter((o) => o === '401 invalid_second_factor').length;
    expect(wrong).toBeLessThanOrEqual(10);
    expect(outcomes.filter((o) => o === '429 rate_limited')).toHaveLength(guesses.length - wrong);
    expect(await outcome((await callerFor(guarded)).auth.secondFactor({ challenge, code: right }))).toBe('429 rate_limited');
  });
});

describe(`sudo mode (${ENGINE})`, () => {
  it('what is dangerous needs a recent sign-in; confirming with the password or a code opens it again', async () => {
    const me = await withTotp();
    const caller = await as(me.token);
    clock.advance(11 * 60_000);
    await expectRefused(caller.twoFactor.regenerateRecoveryCodes(), 403, 'reauthentication_required');
    await expectRefused(caller.twoFactor.disableTotp(), 403, 'reauthentication_required');
    // Reading is not dangerous.
    expect((await caller.twoFactor.status()).enabled).toBe(true);

    await expectRefused(caller.auth.reauthenticate({ password: 'not the password' }), 400, 'invalid_request', { paths: ['password'] });
    await caller.auth.reauthenticate({ password: TEST_PASSWORD });
    // Each request reads its session afresh: a new caller is the next request.
    await (await as(me.token)).twoFactor.regenerateRecoveryCodes();

    clock.advance(11 * 60_000);
    const later = await as(me.token);
    await expectRefused(later.auth.reauthenticate({ code: '000000' === (await codeAt(me.secret)) ? '111111' : '000000' }), 401, 'invalid_second_factor');
    await later.auth.reauthenticate({ code: await codeAt(me.secret) });
    await (await as(me.token)).twoFactor.regenerateRecoveryCodes();
  });
});
