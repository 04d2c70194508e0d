/**
 * The hostile-input tables' rows for forms: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { expect } from 'vitest';
import { formBody, formId, type HostileCases, key, outsider, owner, unclaimed } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  'forms.create': {
    url: () => '/v1/forms',
    token: () => key,
    valid: () => ({ ...formBody }),
    emptyOk: false,
    unknown: () => ({ ...formBody, state: 'unclaimed' }),
    textField: 'name',
  },
  'forms.setRetention': {
    url: () => `/v1/forms/${formId}/retention`,
    token: () => owner.token,
    valid: () => ({ retention_days: 90 }),
    emptyOk: false,
    unknown: () => ({ retention_days: 90, spam_days: 10 }),
    noText: { body: () => ({ retention_days: null }), answer: expect.objectContaining({ retention_days: null }) },
  },
  'forms.update': {
    url: () => `/v1/forms/${formId}`,
    token: () => key,
    valid: () => ({ name: 'Contact' }),
    emptyOk: true,
    unknown: () => ({ name: 'Contact', workspace_id: outsider.workspaceId }),
    textField: 'name',
  },
  'forms.claim': {
    url: () => `/v1/forms/${unclaimed.id}/claim`,
    token: () => owner.token,
    valid: () => ({ claim_token: unclaimed.claimToken, workspace_id: owner.workspaceId }),
    emptyOk: false,
    unknown: () => ({ claim_token: unclaimed.claimToken, workspace_id: owner.workspaceId, project_id: 'prj_x' }),
  },
};
