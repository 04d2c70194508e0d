/**
 * The hostile-input tables' rows for second factors: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { FAKE_REGISTRATION, type HostileCases, stranger } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  // No passkey is being added for the stranger: a case that slipped through adds nothing.
  'twoFactor.addPasskey': {
    url: () => '/v1/auth/two-factor/passkeys',
    token: () => stranger.token,
    valid: () => ({ name: 'Laptop', credential: FAKE_REGISTRATION }),
    emptyOk: false,
    unknown: () => ({ name: 'Laptop', credential: FAKE_REGISTRATION, counter: 0 }),
    textField: 'name',
  },
  // A passkey that is not the stranger's: a case that slipped through renames nothing.
  'twoFactor.renamePasskey': {
    url: () => '/v1/auth/two-factor/passkeys/pkey_00000000000000000000000000',
    token: () => stranger.token,
    valid: () => ({ name: 'Laptop' }),
    emptyOk: false,
    unknown: () => ({ name: 'Laptop', user_id: 'usr_x' }),
    textField: 'name',
  },
  // No setup is in progress for the stranger: a case that slipped through enables nothing.
  'twoFactor.confirmTotp': {
    url: () => '/v1/auth/two-factor/totp/confirm',
    token: () => stranger.token,
    valid: () => ({ code: '123456' }),
    emptyOk: false,
    unknown: () => ({ code: '123456', secret: 'JBSWY3DPEHPK3PXP' }),
    textField: 'code',
  },
};
