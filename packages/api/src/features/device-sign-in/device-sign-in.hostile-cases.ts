/**
 * The hostile-input tables' rows for device sign-in: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import type { HostileCases } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'deviceLogins.start': {
    url: () => '/v1/auth/device-logins',
    token: () => undefined,
    valid: () => ({ device_name: 'lfk CLI' }),
    emptyOk: true,
    unknown: () => ({ device_name: 'lfk CLI', scope: 'admin' }),
    textField: 'device_name',
  },
  'deviceLogins.token': {
    url: () => '/v1/auth/device-logins/token',
    token: () => undefined,
    valid: () => ({ device_code: `lfd_${'a'.repeat(43)}` }),
    emptyOk: false,
    unknown: () => ({ device_code: `lfd_${'a'.repeat(43)}`, grant_type: 'device_code' }),
  },
};
