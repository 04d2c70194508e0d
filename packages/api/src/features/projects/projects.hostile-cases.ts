/**
 * The hostile-input tables' rows for projects: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { type HostileCases, owner } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'projects.create': {
    url: () => `/v1/workspaces/${owner.workspaceId}/projects`,
    token: () => owner.token,
    valid: () => ({ name: 'P' }),
    emptyOk: false,
    unknown: () => ({ name: 'P', is_default: true }),
    textField: 'name',
  },
};
