/**
 * The hostile-input tables' rows for workspaces: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { type HostileCases, owner } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'workspaces.create': {
    url: () => '/v1/workspaces',
    token: () => owner.token,
    valid: () => ({ name: 'W' }),
    emptyOk: false,
    unknown: () => ({ name: 'W', plan: 'enterprise' }),
    textField: 'name',
  },
  // Never sent as is to a workspace it would delete: the name it types is not the workspace's.
  'workspaces.delete': {
    url: () => `/v1/workspaces/${owner.workspaceId}`,
    token: () => owner.token,
    valid: () => ({ confirm: 'Not its name' }),
    emptyOk: false,
    unknown: () => ({ confirm: 'Not its name', force: true }),
    textField: 'confirm',
  },
  'workspaces.update': {
    url: () => `/v1/workspaces/${owner.workspaceId}`,
    token: () => owner.token,
    valid: () => ({ name: 'Renamed' }),
    emptyOk: false,
    unknown: () => ({ name: 'Renamed', owner: 'me' }),
    textField: 'name',
  },
};
