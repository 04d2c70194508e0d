import { newId, WebhookDelivery } from '@lfk/db';
import { listOf } from '../../common-schemas.ts';
import { pageWithin } from '../../infrastructure/pagination.ts';
import { rest } from '../../procedure-meta.ts';
import { formMemberProcedure, formsScopeProcedure } from '../../trpc.ts';
import { findReachableForm } from '../forms/rules.ts';
import { bodyFor } from './chat-messages.ts';
import { attemptOf, isSuccess } from './delivery-job.ts';
import { findEndpoint } from './endpoint-access.ts';
import { eventBody } from './events.ts';
import { webhookDelivery, webhookDeliveryListInput, webhookIdInput, webhookTestResult } from './schemas.ts';
import { deliveryToWire, testResultToWire } from './serializers.ts';
import { requestHeaders } from './signing.ts';

/** What is sent to an endpoint: a test event now, and the log of its deliveries. */
export const deliveryProcedures = {
  test: formsScopeProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/webhooks/:webhook_id/test',
        200,
        'Send a signed `webhook.test` event to the endpoint now, and answer how it went; the delivery log keeps it, marked `test`',
        { errors: ['form_not_found', 'webhook_not_found'] },
      ),
    )
    .input(webhookIdInput)
    .output(webhookTestResult)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const found = await findEndpoint(ctx.em, form.id, input.webhook_id);
      const at = new Date();
      const eventId = newId('msg');
      const payload = eventBody('webhook.test', at, { form: { id: form.id, name: form.name }, webhook: { id: found.id } });
      const body = bodyFor(found.kind, payload, { publicUrl: ctx.services.publicUrl, workspaceId: form.workspace?.id ?? null });
      const result = await ctx.services.outbound.post(found.url, requestHeaders(ctx.services.secretBox, found, eventId, at, body), body);
      const succeeded = isSuccess(result);
      await ctx.em
        .getRepository(WebhookDelivery)
        .logTest({ endpointId: found.id, url: found.url, eventId, payload, attempt: attemptOf(at, result), succeeded }, at);
      return testResultToWire(result, succeeded);
    }),

  deliveries: formMemberProcedure
    .meta(
      rest(
        'GET /v1/forms/:form_id/webhooks/:webhook_id/deliveries',
        200,
        "An endpoint's deliveries, newest first, each with its attempts and payload (members' sessions only: they hold submission values)",
        { errors: ['webhook_not_found'] },
      ),
    )
    .input(webhookDeliveryListInput)
    .output(listOf(webhookDelivery))
    .query(async ({ ctx, input }) => {
      const found = await findEndpoint(ctx.em, ctx.form.id, input.webhook_id);
      return pageWithin('whd', input, (before, bounds) => ctx.em.getRepository(WebhookDelivery).newestOfEndpoint(found.id, before, bounds), deliveryToWire);
    }),
};
