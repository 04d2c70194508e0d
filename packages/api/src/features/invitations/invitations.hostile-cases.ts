/**
 * The hostile-input tables' rows for invitations: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { type HostileCases, owner, stranger } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'invitations.create': {
    url: () => `/v1/workspaces/${owner.workspaceId}/invitations`,
    token: () => owner.token,
    valid: () => ({ email: stranger.email, role: 'member' }),
    emptyOk: false,
    unknown: () => ({ email: stranger.email, role: 'member', is_admin: true }),
  },
};
