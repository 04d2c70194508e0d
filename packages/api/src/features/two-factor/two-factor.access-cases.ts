/**
 * The authorization matrix's rows for second factors: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { authenticatorCode, PasskeyAuthenticator } from '@lfk/testing';
import { expect } from 'vitest';
import { type AccessCase, sessionAccount, signedIn, t } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/auth/two-factor',
    success: (res) => expect(res.json).toEqual({ enabled: false, totp: { enabled: false, enabled_at: null }, passkeys: [], recovery_codes: { remaining: 0 } }),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/two-factor/totp',
    // Starting a setup changes nothing yet, but each session caller starts its own person's.
    prepare: async (w, caller) => (sessionAccount(w, caller) ? { token: (await t.signup()).token } : {}),
    success: (res) => expect(res.json.otpauth_url).toMatch(/^otpauth:\/\/totp\/lfk:/),
    expect: signedIn(201),
  },
  {
    route: 'POST /v1/auth/two-factor/totp/confirm',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return { body: { code: '123456' } };
      const { token } = await t.signup();
      const started = await t.request('POST', '/v1/auth/two-factor/totp', { token });
      return { token, body: { code: await authenticatorCode(started.json.secret, 0, t.server.config.now()) } };
    },
    success: (res) => expect(res.json.recovery_codes).toHaveLength(10),
    expect: signedIn(200),
  },
  {
    route: 'DELETE /v1/auth/two-factor/totp',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return {};
      const { token } = await t.signup();
      await t.enableAuthenticator(token);
      return { token };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/two-factor/recovery-codes',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return {};
      const { token } = await t.signup();
      await t.enableAuthenticator(token);
      return { token };
    },
    success: (res) => expect(res.json.recovery_codes).toHaveLength(10),
    expect: signedIn(201),
  },
  {
    route: 'POST /v1/auth/two-factor/passkeys/options',
    prepare: async (w, caller) => (sessionAccount(w, caller) ? { token: (await t.signup()).token } : {}),
    success: (res) => expect(res.json.options.attestation).toBe('none'),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/two-factor/passkeys',
    prepare: async (w, caller) => {
      const device = new PasskeyAuthenticator(new URL(t.server.config.publicUrl).origin);
      if (!sessionAccount(w, caller))
        return { body: { name: 'Laptop', credential: device.register({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'x' } }) } };
      const { token } = await t.signup();
      const options = await t.request('POST', '/v1/auth/two-factor/passkeys/options', { token });
      return { token, body: { name: 'Laptop', credential: device.register(options.json.options) } };
    },
    success: (res) => expect(res.json.passkey.name).toBe('Laptop'),
    expect: signedIn(201),
  },
  {
    route: 'PATCH /v1/auth/two-factor/passkeys/:passkey_id',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return { params: { passkey_id: 'pkey_00000000000000000000000000' }, body: { name: 'Renamed' } };
      const { token } = await t.signup();
      const { passkeyId } = await t.addPasskey(token);
      return { token, params: { passkey_id: passkeyId }, body: { name: 'Renamed' } };
    },
    success: (res) => expect(res.json.name).toBe('Renamed'),
    expect: signedIn(200),
  },
  {
    route: 'DELETE /v1/auth/two-factor/passkeys/:passkey_id',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return { params: { passkey_id: 'pkey_00000000000000000000000000' } };
      const { token } = await t.signup();
      const { passkeyId } = await t.addPasskey(token);
      return { token, params: { passkey_id: passkeyId } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
];
