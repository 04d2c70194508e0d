/**
 * The hostile-input tables' rows for password resets: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { freshEmail, type HostileCases } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'passwordResets.request': {
    url: () => '/v1/auth/password-resets',
    token: () => undefined,
    valid: () => ({ email: freshEmail() }),
    emptyOk: false,
    unknown: () => ({ email: freshEmail(), redirect_to: 'https://evil.example' }),
  },
};
