/**
 * The authorization matrix's rows for leak reports: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { type AccessCase, anyone } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    // Public, but only a report signed by a trusted key is taken; this server trusts none
    // (test/keys/leak-reports.test.ts signs its own). A refused bearer is refused first, as everywhere.
    route: 'POST /v1/secret-scanning/reports',
    prepare: async () => ({ body: [{ token: 'lfk_not_a_key', type: 'lfk_api_key', url: 'https://example.com' }] }),
    success: () => {},
    expect: {
      ...anyone(200),
      no_credentials: '401 invalid_signature',
      owner_session: '401 invalid_signature',
      member_session: '401 invalid_signature',
      outsider_session: '401 invalid_signature',
      workspace_key: '401 invalid_signature',
      other_workspace_key: '401 invalid_signature',
    },
  },
];
