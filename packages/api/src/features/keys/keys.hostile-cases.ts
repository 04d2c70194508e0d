/**
 * The hostile-input tables' rows for API keys: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { type HostileCases, keyId, owner } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'apiKeys.create': {
    url: () => `/v1/workspaces/${owner.workspaceId}/api-keys`,
    token: () => owner.token,
    valid: () => ({ name: 'k' }),
    emptyOk: true,
    unknown: () => ({ name: 'k', scopes: ['everything'] }),
    textField: 'name',
  },
  'apiKeys.update': {
    url: () => `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`,
    token: () => owner.token,
    valid: () => ({ description: 'k' }),
    emptyOk: true,
    unknown: () => ({ description: 'k', scopes: ['everything'] }),
    textField: 'description',
  },
};
