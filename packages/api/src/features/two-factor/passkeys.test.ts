/**
 * Passkeys through the procedures, made and used by a software authenticator that signs as a
 * platform authenticator does (the dashboard's tests use Chromium's virtual one): added, a second
 * factor, a sign-in without a password, sudo mode's confirmation; and the assertions a server must
 * refuse (replayed, another origin or RP ID, a counter gone back, a removed passkey).
 */
import { ENGINE, type PasskeyAlgorithm, PasskeyAuthenticator, testClock } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { TEST_PASSWORD } from '../../testing.ts';
import { auditActions, sql } from '../../../test/support/database.ts';
import { emailsTo } from '../../../test/support/emails.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { callerFor, type Person, person, testServices } from '../../../test/world.ts';

const clock = testClock(new Date('2026-11-28T12:00:00Z'));
let services: Services;
beforeAll(async () => {
  services = await testServices({ now: clock.now });
});

const ORIGIN = 'http://lfk.test';
const as = (token?: string) => callerFor(services, token);
type Options = {
  challenge: string;
  rpId?: string;
  rp: { id?: string };
  user: { id: string };
  allowCredentials?: { id: string }[];
  pubKeyCredParams?: { alg: number }[];
};

/** A person with a passkey on `device`: added as the dashboard adds one. */
async function withPasskey(device = new PasskeyAuthenticator(ORIGIN), who?: Person) {
  const me = who ?? (await person(services));
  const { options } = await (await as(me.token)).twoFactor.passkeyOptions();
  const added = await (await as(me.token)).twoFactor.addPasskey({ name: 'Laptop', credential: device.register(options as Options) });
  return { ...me, device, passkeyId: added.passkey.id, recoveryCodes: added.recovery_codes };
}

/** Signs in with the password: the challenge, and the passkey options it carries. */
async function challengeOf(email: string) {
  const error = await expectRefused((await as()).auth.login({ email, password: TEST_PASSWORD }), 401, 'second_factor_required');
  return error as typeof error & { challenge: string; factors: string[]; passkey_options: Options };
}

const complete = async (challenge: string, passkey: unknown) => (await as()).auth.secondFactor({ challenge, passkey } as never);

describe(`adding a passkey (${ENGINE})`, () => {
  it("the options, then the browser's answer: listed, a second factor, recovery codes with the first factor", async () => {
    const me = await person(services);
    const elsewhere = (await (await as()).auth.login({ email: me.email, password: TEST_PASSWORD })).session_token;
    const { options } = await (await as(me.token)).twoFactor.passkeyOptions();
    expect(options).toMatchObject({ rp: { id: 'lfk.test', name: 'lfk' }, user: { name: me.email }, attestation: 'none' });
    const device = new PasskeyAuthenticator(ORIGIN);
    const added = await (await as(me.token)).twoFactor.addPasskey({ name: 'Laptop', credential: device.register(options as Options) });
    expect(added.passkey).toMatchObject({ name: 'Laptop', last_used_at: null });
    expect(added.recovery_codes).toHaveLength(10);
    const status = await (await as(me.token)).twoFactor.status();
    expect(status).toMatchObject({
      enabled: true,
      totp: { enabled: false },
      passkeys: [{ id: added.passkey.id, name: 'Laptop' }],
      recovery_codes: { remaining: 10 },
    });
    // The first factor signs out the sessions that signed in without it.
    await expectRefused((await as(elsewhere)).auth.session(), 401, 'invalid_session');
    expect(await auditActions(services, me.workspaceId, 'two_factor.passkey_added')).toEqual([expect.objectContaining({ data: { name: 'Laptop' } })]);
    expect((await emailsTo(services, me.email, 'two_factor_changed')).map((e) => e.subject)).toEqual(['A passkey was added to your lfk account']);

    // A second one comes without new codes.
    const phone = new PasskeyAuthenticator(ORIGIN);
    const second = await (await as(me.token)).twoFactor.addPasskey({
      name: 'Phone',
      credential: phone.register((await (await as(me.token)).twoFactor.passkeyOptions()).options as Options),
    });
    expect(second.recovery_codes).toBeNull();
  });

  it('refuses a passkey made for another origin or RP ID, one made without options, and the same options twice', async () => {
    const me = await person(services);
    const device = new PasskeyAuthenticator(ORIGIN);
    const caller = async () => as(me.token);
    await expectRefused(
      (await caller()).twoFactor.addPasskey({ name: 'x', credential: device.register({ challenge: 'AAAA', rp: { id: 'lfk.test' }, user: { id: 'x' } }) }),
      409,
      'enrolment_not_found',
    );
    for (const ceremony of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const { options } = await (await caller()).twoFactor.passkeyOptions();
      await expectRefused(
        (await caller()).twoFactor.addPasskey({ name: 'x', credential: device.register(options as Options, ceremony) }),
        401,
        'invalid_second_factor',
        { what: JSON.stringify(ceremony) },
      );
    }
    const { options } = await (await caller()).twoFactor.passkeyOptions();
    const credential = device.register(options as Options);
    await (await caller()).twoFactor.addPasskey({ name: 'Laptop', credential });
    await expectRefused((await caller()).twoFactor.addPasskey({ name: 'Again', credential }), 409, 'enrolment_not_found');
    expect((await (await caller()).twoFactor.status()).passkeys.map((p) => p.name)).toEqual(['Laptop']);
  });

  it('every algorithm offered makes a passkey that then signs in (ML-DSA-44, whose signatures are long, first); one not offered is refused', async () => {
    const { options } = await (await as((await person(services)).token)).twoFactor.passkeyOptions();
    const offered = (options as Options).pubKeyCredParams!.map((p) => p.alg);
    // ML-DSA-44 first, as Chromium's authenticator takes it; then Ed25519, ES256, RS256.
    expect(offered).toEqual([-48, -8, -7, -257]);
    for (const algorithm of offered) {
      const me = await withPasskey(new PasskeyAuthenticator(ORIGIN, [algorithm as PasskeyAlgorithm]));
      const pending = await challengeOf(me.email);
      expect((await complete(pending.challenge, me.device.assert(pending.passkey_options))).user.id, `algorithm ${algorithm}`).toBe(me.userId);
      const login = (await (await as()).auth.passkeyLoginOptions()).options as Options;
      expect((await (await as()).auth.passkeyLogin({ passkey: me.device.assert(login) } as never)).user.id, `algorithm ${algorithm}`).toBe(me.userId);
    }
    // An authenticator that makes only ES384, which lfk does not offer: the passkey is not added.
    const me = await person(services);
    const es384 = new PasskeyAuthenticator(ORIGIN, [-35]);
    const { options: offer } = await (await as(me.token)).twoFactor.passkeyOptions();
    const credential = es384.register({ ...(offer as Options), pubKeyCredParams: [{ alg: -35 }] });
    await expectRefused((await as(me.token)).twoFactor.addPasskey({ name: 'ES384', credential }), 401, 'invalid_second_factor');
    expect((await (await as(me.token)).twoFactor.status()).passkeys).toEqual([]);
  });

  it('an addition left halfway expires, and adds nothing', async () => {
    const me = await person(services);
    const { options } = await (await as(me.token)).twoFactor.passkeyOptions();
    clock.advance(6 * 60_000);
    await expectRefused(
      (await as(me.token)).twoFactor.addPasskey({ name: 'Late', credential: new PasskeyAuthenticator(ORIGIN).register(options as Options) }),
      409,
      'enrolment_not_found',
    );
    expect((await (await as(me.token)).twoFactor.status()).enabled).toBe(false);
  });
});

describe(`a passkey as the second factor (${ENGINE})`, () => {
  it("completes the sign-in once; the same assertion is refused again; another account's passkey is refused", async () => {
    const me = await withPasskey();
    const pending = await challengeOf(me.email);
    expect(pending.factors).toEqual(['passkey', 'recovery_code']);
    expect(pending.passkey_options.allowCredentials!.map((c) => c.id)).toEqual([me.device.held[0]!.id]);
    const assertion = me.device.assert(pending.passkey_options);
    expect((await complete(pending.challenge, assertion)).user.id).toBe(me.userId);
    await expectRefused(complete(pending.challenge, assertion), 401, 'invalid_challenge');
    // Replayed on the next sign-in: it signed another challenge.
    await expectRefused(complete((await challengeOf(me.email)).challenge, assertion), 401, 'invalid_second_factor');
    expect((await (await as(me.token)).twoFactor.status()).passkeys[0]!.last_used_at).toBe(clock.now().toISOString());

    const stranger = await withPasskey();
    const next = await challengeOf(me.email);
    await expectRefused(
      complete(next.challenge, stranger.device.assert(next.passkey_options, { passkey: stranger.device.held[0] })),
      401,
      'invalid_second_factor',
    );
  });

  it('refuses an assertion for another origin or RP ID, and one whose counter went back', async () => {
    const me = await withPasskey();
    const first = await challengeOf(me.email);
    await complete(first.challenge, me.device.assert(first.passkey_options, { counter: 5 }));
    // A counter may stay at 0 for an authenticator that keeps none; once it counted, it may only go up.
    for (const ceremony of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { counter: 5 }, { counter: 0 }]) {
      const pending = await challengeOf(me.email);
      await expectRefused(complete(pending.challenge, me.device.assert(pending.passkey_options, ceremony)), 401, 'invalid_second_factor', {
        what: JSON.stringify(ceremony),
      });
    }
    const pending = await challengeOf(me.email);
    await complete(pending.challenge, me.device.assert(pending.passkey_options, { counter: 6 }));
  });

  it('malformed assertions are 400s, and one challenge answered twice at once signs in once', async () => {
    const me = await withPasskey();
    const pending = await challengeOf(me.email);
    for (const bad of [{}, { id: 'x' }, 'a string', { ...me.device.assert(pending.passkey_options), type: 'password' }]) {
      await expectRefused(complete(pending.challenge, bad), 400, 'invalid_request', { what: JSON.stringify(bad).slice(0, 80) });
    }
    const [a, b] = [me.device.assert(pending.passkey_options), me.device.assert(pending.passkey_options)];
    expect((await Promise.all([outcome(complete(pending.challenge, a)), outcome(complete(pending.challenge, b))])).toSorted()).toEqual([
      '401 invalid_challenge',
      'done',
    ]);
  });
});

describe(`signing in with a passkey alone (${ENGINE})`, () => {
  it('the options, then the assertion: a session; replayed: refused; removed: refused', async () => {
    const me = await withPasskey();
    const options = (await (await as()).auth.passkeyLoginOptions()).options as Options;
    expect(options.allowCredentials ?? []).toEqual([]);
    const assertion = me.device.assert(options);
    const signedIn = await (await as()).auth.passkeyLogin({ passkey: assertion } as never);
    expect(signedIn.user.id).toBe(me.userId);
    await expectRefused((await as()).auth.passkeyLogin({ passkey: assertion } as never), 401, 'invalid_challenge');

    const other = me.device.assert((await (await as()).auth.passkeyLoginOptions()).options as Options, { origin: 'https://evil.example' });
    await expectRefused((await as()).auth.passkeyLogin({ passkey: other } as never), 401, 'invalid_second_factor');

    await (await as(me.token)).twoFactor.removePasskey({ passkey_id: me.passkeyId });
    const afterRemoval = me.device.assert((await (await as()).auth.passkeyLoginOptions()).options as Options);
    await expectRefused((await as()).auth.passkeyLogin({ passkey: afterRemoval } as never), 401, 'invalid_second_factor');
  });
});

describe(`managing passkeys (${ENGINE})`, () => {
  it("rename and remove one's own; another person's is not found; with the last factor the recovery codes go", async () => {
    const me = await withPasskey();
    const stranger = await person(services);
    expect((await (await as(me.token)).twoFactor.renamePasskey({ passkey_id: me.passkeyId, name: 'Work laptop' })).name).toBe('Work laptop');
    await expectRefused((await as(stranger.token)).twoFactor.renamePasskey({ passkey_id: me.passkeyId, name: 'Mine' }), 404, 'passkey_not_found');
    await expectRefused((await as(stranger.token)).twoFactor.removePasskey({ passkey_id: me.passkeyId }), 404, 'passkey_not_found');
    await (await as(me.token)).twoFactor.removePasskey({ passkey_id: me.passkeyId });
    expect(await (await as(me.token)).twoFactor.status()).toMatchObject({ enabled: false, passkeys: [], recovery_codes: { remaining: 0 } });
    expect(await auditActions(services, me.workspaceId, 'two_factor.passkey_removed')).toEqual([expect.objectContaining({ data: { name: 'Work laptop' } })]);
    expect(await sql(services, 'select id from passkeys where id = ?', [me.passkeyId])).toEqual([]);
  });

  it('sudo mode: a passkey confirms who you are', async () => {
    const me = await withPasskey();
    clock.advance(11 * 60_000);
    await expectRefused((await as(me.token)).twoFactor.removePasskey({ passkey_id: me.passkeyId }), 403, 'reauthentication_required');
    const { options } = await (await as(me.token)).auth.reauthenticateOptions();
    await expectRefused(
      (await as(me.token)).auth.reauthenticate({ passkey: me.device.assert(options as Options, { origin: 'https://evil.example' }) } as never),
      401,
      'invalid_second_factor',
    );
    const again = (await (await as(me.token)).auth.reauthenticateOptions()).options as Options;
    await (await as(me.token)).auth.reauthenticate({ passkey: me.device.assert(again) } as never);
    await (await as(me.token)).twoFactor.removePasskey({ passkey_id: me.passkeyId });
    const none = await person(services);
    await expectRefused((await as(none.token)).auth.reauthenticateOptions(), 409, 'two_factor_not_enabled');
  });
});
