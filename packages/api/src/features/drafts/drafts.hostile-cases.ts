/**
 * The hostile-input tables' rows for drafts: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 * A page's routes answer its origin only, which these cases do not send: their bodies are judged
 * first, so a hostile body is refused as any other route's is, and a valid one meets the origin check.
 */
import { type HostileCases, openFormId } from '../../test-tables/hostile.ts';

const TOKEN = `lfp_${'A'.repeat(43)}`;

export const hostileCases: HostileCases = {
  'drafts.start': {
    url: () => `/v1/forms/${openFormId}/drafts`,
    token: () => undefined,
    valid: () => ({ data: { email: 'ada@' } }),
    emptyOk: false,
    unknown: () => ({ data: {}, resume_token: TOKEN }),
  },
  'drafts.save': {
    url: () => `/v1/forms/${openFormId}/drafts/${TOKEN}`,
    token: () => undefined,
    valid: () => ({ data: { email: 'ada@example.com' } }),
    emptyOk: false,
    unknown: () => ({ data: {}, draft_id: 'drf_x' }),
  },
};
