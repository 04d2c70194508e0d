/**
 * The hostile-input tables' rows for drafts: the members' body route (test-only; the words are
 * ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/). A page's routes
 * answer visitors, and their hostile bodies are apps/server/test/forms/drafts.test.ts's.
 */
import { type HostileCases, openFormId, owner } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'drafts.delete': {
    url: () => `/v1/forms/${openFormId}/drafts/delete`,
    token: () => owner.token,
    valid: () => ({ ids: ['drf_00000000000000000000000000'] }),
    emptyOk: false,
    unknown: () => ({ ids: ['drf_00000000000000000000000000'], all: true }),
    noText: { body: () => ({ ids: ['drf_\ud800'] }), answer: { deleted: 0 } },
  },
};
