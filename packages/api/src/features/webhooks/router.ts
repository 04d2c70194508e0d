import { router } from '../../trpc.ts';
import { deliveryProcedures } from './delivery-procedures.ts';
import { endpointProcedures } from './endpoint-procedures.ts';
import { eventFeedProcedures } from './event-feed-procedures.ts';
import { recoveryProcedures } from './recovery-procedures.ts';
import { secretProcedures } from './secret-procedures.ts';

/**
 * A form's webhooks: each group of procedures is in a file of its own. Merged in this order, which
 * is the order of the REST table and of the OpenAPI document's paths.
 */
export const webhooksRouter = router({
  ...endpointProcedures,
  ...secretProcedures,
  ...deliveryProcedures,
  ...eventFeedProcedures,
  ...recoveryProcedures,
});
