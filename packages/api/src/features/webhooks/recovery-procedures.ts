import { isId, WebhookDelivery } from '@lfk/db';
import { DAY_MS, WEBHOOK_RECOVER_MAX_DAYS, WEBHOOK_RECOVER_MAX_EVENTS } from '@lfk/vocabulary';
import type { Context } from '../../context.ts';
import { ApiError, invalidField } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { formMemberProcedure } from '../../trpc.ts';
import { auditWebhook, findEndpoint, lockEndpoint } from './endpoint-access.ts';
import { sentMissed } from './missed-events.ts';
import { bodiesOf, planRecover, recoverChunks } from './recover.ts';
import { webhookDelivery, webhookDeliveryIdInput, webhookRecovered, webhookRecoverInput } from './schemas.ts';
import { deliveryToWire } from './serializers.ts';

/** The delivery of the form's endpoint that the input names; another endpoint's, or a wrong-shaped id, is not found. */
async function findDelivery(ctx: Context & { form: { id: string } }, input: { webhook_id: string; delivery_id: string }) {
  const endpoint = await findEndpoint(ctx.em, ctx.form.id, input.webhook_id);
  const deliveries = ctx.em.getRepository(WebhookDelivery);
  const found = isId('whd', input.delivery_id) ? await deliveries.findOfEndpoint(endpoint.id, input.delivery_id) : null;
  if (!found) throw new ApiError('webhook_delivery_not_found');
  return { endpoint, found };
}

/** Sending again: a time range of the form's events to an endpoint, or one delivery now; or never sending one. */
export const recoveryProcedures = {
  recover: formMemberProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/webhooks/:webhook_id/recover',
        202,
        "Send the form's events of a time range (of the types the endpoint takes) to this endpoint again, as new deliveries " +
          "with their original `webhook-id`s, queued oldest first (members' sessions only). A submission's event is rebuilt from it as " +
          'it is now (one deleted or marked spam since is not sent); events already waiting for the endpoint are not queued twice. ' +
          `At most ${WEBHOOK_RECOVER_MAX_EVENTS} at once (\`next_since\` says where the rest start); they are taken a few at a time, ` +
          "so neither the endpoint's new events nor other endpoints' are held up",
        { errors: ['webhook_not_found', 'webhook_disabled'] },
      ),
    )
    .input(webhookRecoverInput)
    .output(webhookRecovered)
    .mutation(async ({ ctx, input }) => {
      const now = ctx.services.now();
      const since = new Date(input.since);
      const until = input.until === undefined ? now : new Date(input.until);
      if (since.getTime() < now.getTime() - WEBHOOK_RECOVER_MAX_DAYS * DAY_MS) {
        throw new ApiError('invalid_request', { details: [{ path: 'since', message: `At most ${WEBHOOK_RECOVER_MAX_DAYS} days back.` }] });
      }
      if (input.until === undefined && since >= now) throw invalidField('since', 'Must be in the past.');
      if (until <= since) throw invalidField('until', 'Must be after since.');
      const endpoint = await findEndpoint(ctx.em, ctx.form.id, input.webhook_id);
      if (!input.dry_run && !endpoint.enabled) throw new ApiError('webhook_disabled');
      const plan = await planRecover(ctx.em, ctx.form.id, endpoint, since, until);
      const answer = { already_waiting: plan.alreadyWaiting, next_since: plan.nextSince?.toISOString() ?? null, dry_run: input.dry_run };
      if (input.dry_run) return { ...answer, queued: plan.events.length };
      const form = { id: ctx.form.id, name: ctx.form.name, workspaceId: ctx.form.workspace?.id ?? null };
      let queued = 0;
      for (const chunk of recoverChunks(plan.events)) {
        // Short transactions, each under the endpoint's row lock: one disabled or moved meanwhile is
        // seen (a disabled one gets no more; a moved one's URL is the one written).
        const went = await ctx.em.transactional(async (em) => {
          const locked = await lockEndpoint(em, ctx.form.id, endpoint.id);
          if (!locked.enabled) return false;
          const events = await bodiesOf(em, ctx.services, form, chunk);
          // Set aside: the claim takes them a few at a time, so the endpoint's other deliveries and other endpoints' are not held up.
          await em.getRepository(WebhookDelivery).writeEvents([locked], events, new Date(), true);
          queued += events.length;
          return true;
        });
        if (!went) break;
        ctx.services.wakeWebhooks();
      }
      await ctx.em.transactional(async (em) => {
        const locked = await lockEndpoint(em, ctx.form.id, endpoint.id);
        // What it missed while disabled is sent up to where this recover got: no longer offered.
        if (locked.enabled) sentMissed(locked, since, plan.nextSince ?? until, now);
        auditWebhook(em, endpoint, ctx.form.workspace!.id, ctx.actor, 'webhook.recovered', { since: since.toISOString(), until: until.toISOString(), queued });
      });
      return { ...answer, queued };
    }),

  retryDelivery: formMemberProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/webhooks/:webhook_id/deliveries/:delivery_id/retry',
        202,
        "One attempt now, with the same `webhook-id`, to the endpoint's URL as it is now (members' sessions only: " +
          'this is how a delivery `held` by a URL change is sent). It leaves the automatic schedule as it was: if it fails, ' +
          'the next automatic attempt comes when it would have',
        { errors: ['webhook_not_found', 'webhook_delivery_not_found', 'webhook_disabled', 'webhook_delivery_in_flight'] },
      ),
    )
    .input(webhookDeliveryIdInput)
    .output(webhookDelivery)
    .mutation(async ({ ctx, input }) => {
      const { endpoint, found } = await findDelivery(ctx, input);
      const retried = await ctx.em.transactional(async (em) => {
        // The endpoint's row lock orders this against a concurrent disable (a disabled endpoint's
        // deliveries wait) and a move (the URL read is the one it has until this commits).
        const locked = await lockEndpoint(em, ctx.form.id, endpoint.id);
        if (!locked.enabled) throw new ApiError('webhook_disabled');
        if (!(await em.getRepository(WebhookDelivery).retryNow(found.id, locked.url, new Date()))) return false;
        auditWebhook(em, endpoint, ctx.form.workspace!.id, ctx.actor, 'webhook.delivery_retried', { delivery_id: found.id });
        return true;
      });
      if (!retried) throw new ApiError('webhook_delivery_in_flight');
      ctx.services.wakeWebhooks();
      await ctx.em.refresh(found);
      return deliveryToWire(found);
    }),

  discardDelivery: formMemberProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/webhooks/:webhook_id/deliveries/:delivery_id/discard',
        200,
        "Never send this delivery (members' sessions only): one waiting, `held` by a URL change, or failed becomes `discarded`. " +
          'It stays in the log, and a retry can still send it',
        { errors: ['webhook_not_found', 'webhook_delivery_not_found', 'webhook_delivery_in_flight', 'webhook_delivery_succeeded'] },
      ),
    )
    .input(webhookDeliveryIdInput)
    .output(webhookDelivery)
    .mutation(async ({ ctx, input }) => {
      const { endpoint, found } = await findDelivery(ctx, input);
      const outcome = await ctx.em.transactional(async (em) => {
        const outcome = await em.getRepository(WebhookDelivery).discard(found.id, new Date());
        if (outcome === 'discarded') auditWebhook(em, endpoint, ctx.form.workspace!.id, ctx.actor, 'webhook.delivery_discarded', { delivery_id: found.id });
        return outcome;
      });
      if (outcome === 'gone') throw new ApiError('webhook_delivery_not_found');
      if (outcome === 'in_flight') throw new ApiError('webhook_delivery_in_flight');
      if (outcome === 'succeeded') throw new ApiError('webhook_delivery_succeeded');
      await ctx.em.refresh(found);
      return deliveryToWire(found);
    }),
};
