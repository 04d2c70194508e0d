/**
 * The hostile-input tables' rows for webhooks: each body route of this folder with a caller and a valid
 * body (test-only; the words are ../../test-tables/hostile.ts's, the cases run in apps/server/test/hostile-input/).
 */
import { hookFormId, type HostileCases, key, owner, WEBHOOK_URL, webhookId } from '../../test-tables/hostile.ts';

export const hostileCases: HostileCases = {
  // Every refusal comes before an endpoint is made, so the form never nears its 5 endpoints.
  'webhooks.create': {
    url: () => `/v1/forms/${hookFormId}/webhooks`,
    token: () => key,
    valid: () => ({ url: WEBHOOK_URL, description: 'Orders' }),
    emptyOk: false,
    unknown: () => ({ url: WEBHOOK_URL, secret: 'whsec_chosen' }),
    textField: 'description',
  },
  'webhooks.update': {
    url: () => `/v1/forms/${hookFormId}/webhooks/${webhookId}`,
    token: () => key,
    valid: () => ({ description: 'Orders' }),
    emptyOk: true,
    unknown: () => ({ description: 'Orders', secret: 'whsec_chosen' }),
    textField: 'description',
  },
  // A dry run: it counts and queues nothing. Its only strings are times, refused when not one.
  'webhooks.recover': {
    url: () => `/v1/forms/${hookFormId}/webhooks/${webhookId}/recover`,
    token: () => owner.token,
    valid: () => ({ since: new Date(Date.now() - 3_600_000).toISOString(), dry_run: true }),
    emptyOk: false,
    unknown: () => ({ since: new Date(Date.now() - 3_600_000).toISOString(), events: ['form.closed'] }),
    textField: 'since',
  },
};
