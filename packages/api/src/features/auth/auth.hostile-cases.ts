/**
 * The hostile-input tables' rows for sign-up, sign-in and the account: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { FAKE_ASSERTION, freshEmail, type HostileCases, owner, PASSWORD, stranger } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'auth.signup': {
    url: () => '/v1/auth/signup',
    token: () => undefined,
    valid: () => ({ email: freshEmail(), password: PASSWORD }),
    emptyOk: false,
    unknown: () => ({ email: freshEmail(), password: PASSWORD, role: 'admin' }),
    textField: 'name',
  },
  'auth.login': {
    url: () => '/v1/auth/login',
    token: () => undefined,
    valid: () => ({ email: owner.email, password: PASSWORD }),
    emptyOk: false,
    unknown: () => ({ email: owner.email, password: PASSWORD, remember_me: true }),
  },
  // A challenge that names no sign-in: a case that slipped through signs nobody in.
  'auth.secondFactor': {
    url: () => '/v1/auth/second-factor',
    token: () => undefined,
    valid: () => ({ challenge: `lfm_${'0'.repeat(43)}`, code: '123456' }),
    emptyOk: false,
    unknown: () => ({ challenge: `lfm_${'0'.repeat(43)}`, code: '123456', remember_device: true }),
    // Not free text, but what a person types: anything but six digits is refused.
    textField: 'code',
  },
  // Never the account's password.
  'auth.reauthenticate': {
    url: () => '/v1/auth/reauthenticate',
    token: () => stranger.token,
    valid: () => ({ password: 'not the password' }),
    emptyOk: false,
    unknown: () => ({ password: 'not the password', for: 'ever' }),
    anyCharacters: 'password',
  },
  // An assertion signed by nothing: a case that slipped through signs nobody in.
  'auth.passkeyLogin': {
    url: () => '/v1/auth/login/passkey',
    token: () => undefined,
    valid: () => ({ passkey: FAKE_ASSERTION }),
    emptyOk: false,
    unknown: () => ({ passkey: FAKE_ASSERTION, remember: true }),
    encoded: { path: 'passkey.id', body: (id) => ({ passkey: { ...FAKE_ASSERTION, id } }) },
  },
  // Never the account's password: a case that slipped through would delete nothing.
  'auth.deleteAccount': {
    url: () => '/v1/auth/account',
    token: () => stranger.token,
    valid: () => ({ password: 'not the password' }),
    emptyOk: false,
    unknown: () => ({ password: 'not the password', confirm: true }),
    anyCharacters: 'password',
  },
  'auth.changePassword': {
    url: () => '/v1/auth/password',
    token: () => stranger.token,
    valid: () => ({ current_password: PASSWORD, new_password: PASSWORD }),
    emptyOk: false,
    unknown: () => ({ current_password: PASSWORD, new_password: PASSWORD, email: 'x@example.com' }),
    anyCharacters: 'new_password',
  },
};
