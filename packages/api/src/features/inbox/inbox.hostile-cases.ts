/**
 * The hostile-input tables' rows for the inbox: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { type HostileCases, openFormId, owner } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'submissions.deleteMany': {
    url: () => `/v1/forms/${openFormId}/submissions/delete`,
    token: () => owner.token,
    valid: () => ({ ids: ['sub_00000000000000000000000000'] }),
    emptyOk: false,
    unknown: () => ({ ids: ['sub_00000000000000000000000000'], all: true }),
    noText: { body: () => ({ ids: ['sub_\ud800'] }), answer: { deleted: 0 } },
  },
};
