/**
 * The authorization matrix's rows for sign-up, sign-in and the account: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { authenticatorCode } from '@lfk/testing';
import { expect } from 'vitest';
import { type AccessCase, anyone, freshEmail, login, PASSWORD, sessionAccount, signedIn, t } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'POST /v1/auth/signup',
    prepare: async () => {
      const email = freshEmail();
      return { body: { email, password: PASSWORD }, ref: { email } };
    },
    success: (res, { prepared }) => expect(res.json.user.email).toBe(prepared.ref!.email),
    expect: anyone(201),
  },
  {
    route: 'POST /v1/auth/login',
    prepare: async (w) => ({ body: { email: w.owner.email, password: PASSWORD } }),
    success: (res, { w }) => {
      expect(res.json.user.id).toBe(w.owner.userId);
      expect(res.json.session_token).toMatch(/^lfs_/);
    },
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/logout',
    // Signing out revokes the session: each session caller signs out a fresh one of its own.
    prepare: async (w, caller) => {
      const account = sessionAccount(w, caller);
      return account ? { token: await login(account.email) } : {};
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/password',
    // A person of its own for each session caller: the shared ones keep their passwords for login.
    prepare: async (w, caller) => {
      const body = { current_password: PASSWORD, new_password: 'a new long password' };
      return sessionAccount(w, caller) ? { token: (await t.signup()).token, body } : { body };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'DELETE /v1/auth/account',
    // A person of its own for each session caller: the shared ones stay.
    prepare: async (w, caller) => {
      const body = { password: PASSWORD };
      return sessionAccount(w, caller) ? { token: (await t.signup()).token, body } : { body };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
  {
    route: 'POST /v1/auth/email-verification',
    // A person of its own for each session caller, whose address is not verified yet.
    prepare: async (w, caller) => (sessionAccount(w, caller) ? { token: (await t.signup(undefined, { confirmed: false })).token } : {}),
    success: (res) => expect(res.json.sent_to).toMatch(/^.\*\*\*@example\.com$/),
    expect: signedIn(202),
  },
  {
    route: 'GET /v1/auth/session',
    success: (res, { w, caller }) => expect(res.json.user.id).toBe(sessionAccount(w, caller)!.userId),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/second-factor',
    // The challenge is the credential: any caller holding one completes its sign-in.
    prepare: async () => {
      const person = await t.signup();
      const { secret } = await t.enableAuthenticator(person.token);
      const answer = await t.request('POST', '/v1/auth/login', { body: { email: person.email, password: PASSWORD } });
      // The setup took the current step's code: the app's next one is taken once.
      return {
        body: { challenge: answer.json.error.challenge, code: await authenticatorCode(secret, 1, t.server.config.now()) },
        ref: { userId: person.userId },
      };
    },
    success: (res, { prepared }) => expect(res.json.user.id).toBe(prepared.ref!.userId),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/login/passkey/options',
    success: (res) => expect(res.json.options.challenge).toEqual(expect.any(String)),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/login/passkey',
    // The passkey is the credential: any caller holding one signs its person in.
    prepare: async () => {
      const person = await t.signup();
      const { device } = await t.addPasskey(person.token);
      const options = await t.request('POST', '/v1/auth/login/passkey/options');
      return { body: { passkey: device.assert(options.json.options) }, ref: { userId: person.userId } };
    },
    success: (res, { prepared }) => expect(res.json.user.id).toBe(prepared.ref!.userId),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/auth/reauthenticate/options',
    prepare: async (w, caller) => {
      if (!sessionAccount(w, caller)) return {};
      const { token } = await t.signup();
      await t.addPasskey(token);
      return { token };
    },
    success: (res) => expect(res.json.options.allowCredentials).toHaveLength(1),
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/auth/reauthenticate',
    prepare: async () => ({ body: { password: PASSWORD } }),
    success: (res) => expect(res.body).toBe(''),
    expect: signedIn(204),
  },
];
