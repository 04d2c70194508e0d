/**
 * The hostile-input tables' rows for members: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { expect } from 'vitest';
import { type HostileCases, member, owner } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'members.setRole': {
    url: () => `/v1/workspaces/${owner.workspaceId}/members/${member.userId}`,
    token: () => owner.token,
    valid: () => ({ role: 'member' }),
    emptyOk: false,
    unknown: () => ({ role: 'member', email: 'x@example.com' }),
    noText: { body: () => ({ role: 'member' }), answer: expect.objectContaining({ role: 'member' }) },
  },
};
