import { Form, newId, WebhookDelivery, WebhookEndpoint } from '@lfk/db';
import { MAX_WEBHOOKS_PER_FORM, signsRequests } from '@lfk/vocabulary';
import type { z } from 'zod';
import { listOf } from '../../common-schemas.ts';
import type { Context } from '../../context.ts';
import { ApiError, invalidField } from '../../errors.ts';
import { runIdempotently } from '../../infrastructure/idempotency.ts';
import { rest } from '../../procedure-meta.ts';
import { confirmedFormsScopeProcedure, formsScopeProcedure } from '../../trpc.ts';
import { findReachableForm, formGone } from '../forms/rules.ts';
import { auditWebhook, findEndpoint, lockEndpoint, oneWithLastDelivery, withLastDelivery } from './endpoint-access.ts';
import { keepMissed } from './missed-events.ts';
import { createdWebhook, webhook, webhookCreateInput, webhookIdInput, webhookUpdateInput } from './schemas.ts';
import { secretContext } from './secrets.ts';
import { webhookToWire } from './serializers.ts';
import { generateSigningKey } from './signing.ts';

/**
 * The URL, if lfk may send to it as far as its text tells (`LFK_WEBHOOK_ALLOW_PRIVATE` aside:
 * https, not a private address): a name is judged when sending, never here (no DNS oracle).
 */
function assertSendable(ctx: Context, url: string): void {
  const refusal = ctx.services.outbound.refusal(url);
  if (refusal) throw invalidField('url', refusal);
}

/** A form's endpoints: adding one (with its signing key), reading, changing (its URL, events, enabled) and deleting them. */
export const endpointProcedures = {
  create: confirmedFormsScopeProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/webhooks',
        201,
        'Add a webhook endpoint to a form; its signing secret (`whsec_…`) is in this answer only (with `ed25519` signing, no secret: its `public_key`)',
        { errors: ['form_not_found', 'webhook_limit_reached'], idempotent: true },
      ),
    )
    .input(webhookCreateInput)
    .output(createdWebhook)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      assertSendable(ctx, input.url);
      const workspaceId = form.workspace!.id;
      const created = await runIdempotently<z.input<typeof createdWebhook>>(ctx, { operation: 'webhooks.create', target: form.id }, input, async (em) => {
        // The form's row lock makes "count, then insert" one step across requests and replicas.
        await em.getRepository(Form).findOneForUpdateOrFail({ id: form.id }, formGone);
        if ((await em.getRepository(WebhookEndpoint).count({ form: form.id })) >= MAX_WEBHOOKS_PER_FORM) {
          throw new ApiError('webhook_limit_reached');
        }
        const id = newId('wh');
        const key = generateSigningKey(input.signing);
        const record = em.create(WebhookEndpoint, {
          id,
          form: form.id,
          url: input.url,
          kind: input.kind,
          description: input.description ?? null,
          events: input.events,
          enabled: true,
          disabledReason: null,
          disabledAt: null,
          signing: input.signing,
          secretSealed: ctx.services.secretBox.seal(key.secret, secretContext(id, 'current')),
          publicKey: key.publicKey,
          secretNumber: 1,
          secretCreatedAt: ctx.services.now(),
          previousSecrets: [],
          failingSince: null,
        });
        auditWebhook(em, record, workspaceId, ctx.actor, 'webhook.created');
        await em.flush();
        const wire = webhookToWire(record, undefined);
        // A replay does not repeat the secret: it is stored sealed, never in the idempotency record.
        const shared = signsRequests(input.kind) && input.signing === 'hmac-sha256' ? key.secret : null;
        return { response: { ...wire, secret: shared }, replay: { ...wire, secret: null } };
      });
      // The form's submissions queue deliveries from now on.
      ctx.services.formCache.forget(form.id);
      return created;
    }),

  list: formsScopeProcedure
    .meta(rest('GET /v1/forms/:form_id/webhooks', 200, "A form's webhook endpoints, oldest first, never their secrets", { errors: ['form_not_found'] }))
    .input(webhookIdInput.pick({ form_id: true }))
    .output(listOf(webhook))
    .query(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const endpoints = await ctx.em.getRepository(WebhookEndpoint).listOfForm(form.id);
      return { data: await withLastDelivery(ctx.em, endpoints), next_cursor: null };
    }),

  get: formsScopeProcedure
    .meta(rest('GET /v1/forms/:form_id/webhooks/:webhook_id', 200, 'One webhook endpoint of a form', { errors: ['form_not_found', 'webhook_not_found'] }))
    .input(webhookIdInput)
    .output(webhook)
    .query(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      return oneWithLastDelivery(ctx.em, await findEndpoint(ctx.em, form.id, input.webhook_id));
    }),

  update: formsScopeProcedure
    .meta(
      rest(
        'PATCH /v1/forms/:form_id/webhooks/:webhook_id',
        200,
        'Change an endpoint: its URL, description, events, or enabled (while it is disabled, new events are not sent to it; ' +
          'deliveries queued before wait, and go when it is enabled again). ' +
          'A new URL receives the events after the change; deliveries still waiting for the previous URL are `held` ' +
          "for a member's session to retry (to the new URL) or discard",
        { errors: ['form_not_found', 'webhook_not_found'] },
      ),
    )
    .input(webhookUpdateInput)
    .output(webhook)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      if (input.url !== undefined) assertSendable(ctx, input.url);
      const { updated, resumed } = await ctx.em.transactional(async (em) => {
        const found = await lockEndpoint(em, form.id, input.webhook_id);
        const deliveries = em.getRepository(WebhookDelivery);
        const changed = (['url', 'description', 'events', 'enabled'] as const).filter((field) => input[field] !== undefined);
        let held: number | undefined;
        if (input.url !== undefined && input.url !== found.url) {
          found.url = input.url;
          // Another receiver: the old one's failures do not count toward disabling this one.
          found.failingSince = null;
          // What was queued for the old URL carries submissions made before the move: the new URL
          // (perhaps a key's) must not read them. Held before any resume below, so enabling in the
          // same change releases none of them.
          held = await deliveries.holdMovedFrom(found.id, input.url);
        }
        if (input.description !== undefined) found.description = input.description;
        if (input.events !== undefined) found.events = input.events;
        let resumed = 0;
        if (input.enabled !== undefined && input.enabled !== found.enabled) {
          if (input.enabled && found.disabledAt) await keepMissed(em, form.id, found, found.disabledAt, new Date());
          found.enabled = input.enabled;
          found.disabledReason = input.enabled ? null : 'manual';
          found.disabledAt = input.enabled ? null : new Date();
          // A fresh start: failures before it was disabled do not count toward the next 3 days.
          found.failingSince = null;
          if (input.enabled) resumed = await deliveries.resumeOf(found.id, new Date());
          else await deliveries.pauseOf(found.id);
        }
        if (changed.length > 0) {
          auditWebhook(em, found, form.workspace!.id, ctx.actor, 'webhook.updated', { fields: changed, ...(held ? { held } : {}) });
        }
        return { updated: found, resumed };
      });
      // Enabled or disabled, it may decide whether the form's submissions queue deliveries.
      if (input.enabled !== undefined) ctx.services.formCache.forget(form.id);
      if (resumed > 0) ctx.services.wakeWebhooks();
      return oneWithLastDelivery(ctx.em, updated);
    }),

  delete: formsScopeProcedure
    .meta(
      rest('DELETE /v1/forms/:form_id/webhooks/:webhook_id', 204, 'Delete an endpoint; its pending deliveries are cancelled', {
        errors: ['form_not_found', 'webhook_not_found'],
      }),
    )
    .input(webhookIdInput)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      await ctx.em.transactional(async (em) => {
        const found = await lockEndpoint(em, form.id, input.webhook_id);
        auditWebhook(em, found, form.workspace!.id, ctx.actor, 'webhook.deleted');
        // Its deliveries go with it (on delete cascade).
        em.remove(found);
      });
      ctx.services.formCache.forget(form.id);
    }),
};
