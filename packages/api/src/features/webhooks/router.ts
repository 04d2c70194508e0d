import { AuditEvent, Form, type IWebhookEndpoint, isId, newId, Submission, WebhookDelivery, WebhookEndpoint } from '@lfk/db';
import { type AuditAction, DAY_MS, MAX_WEBHOOKS_PER_FORM, PAGE_MAX_BYTES, signsRequests, WEBHOOK_RECOVER_MAX_DAYS, WEBHOOK_RECOVER_MAX_EVENTS, type WebhookKind } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { z } from 'zod';
import { listOf } from '../../common-schemas.ts';
import type { Context } from '../../context.ts';
import type { SecretBox } from '../../credentials/secret-box.ts';
import { ApiError, invalidField } from '../../errors.ts';
import { runIdempotently } from '../../infrastructure/idempotency.ts';
import { pageWithin } from '../../infrastructure/pagination.ts';
import { rest } from '../../procedure-meta.ts';
import { linkedFilesOf } from '../files/linked-files.ts';
import { type Actor, confirmedFormsScopeProcedure, formMemberProcedure, formsScopeProcedure, router } from '../../trpc.ts';
import { findReachableForm, formGone } from '../forms/rules.ts';
import { attemptOf, isSuccess } from './delivery-job.ts';
import { eventBody, submissionCreatedPayload, submissionEventId, submissionOfEvent } from './events.ts';
import {
  createdWebhook,
  formEventPage,
  formEventsInput,
  rotatedWebhookSecret,
  webhook,
  webhookCreateInput,
  webhookDelivery,
  webhookDeliveryIdInput,
  webhookDeliveryListInput,
  webhookIdInput,
  webhookSecret,
  webhookSecretNumberInput,
  webhookRecovered,
  webhookRecoverInput,
  webhookTestResult,
  webhookUpdateInput,
} from './schemas.ts';
import { bodiesOf, planRecover, recoverChunks, recoverReach } from './recover.ts';
import { cursorOf, positionOf } from './stream-cursor.ts';
import { afterRotation, livePrevious, MAX_PREVIOUS_SECRETS, secretContext } from './secrets.ts';
import { deliveryToWire, testResultToWire, webhookToWire } from './serializers.ts';
import { generateSigningKey, requestHeaders } from './signing.ts';
import { bodyFor } from './chat-messages.ts';

/**
 * The form's endpoint with this id; another form's, or a wrong-shaped id, is not found. `lock`
 * takes its row lock, in `em`'s transaction, for a change.
 */
async function findEndpoint(em: EntityManager, formId: string, webhookId: string, lock = false): Promise<IWebhookEndpoint> {
  const endpoints = em.getRepository(WebhookEndpoint);
  const where = { id: webhookId, form: formId };
  const found = isId('wh', webhookId) ? await (lock ? endpoints.findOneForUpdate(where) : endpoints.findOne(where)) : null;
  if (!found) throw new ApiError('webhook_not_found');
  return found;
}

/** An endpoint whose secrets a request reads or changes: a Slack or Discord one signs nothing, and has none. */
function signing<E extends { kind: WebhookKind }>(endpoint: E): E {
  if (!signsRequests(endpoint.kind)) throw new ApiError('webhook_not_signed');
  return endpoint;
}

/**
 * Keeps what the endpoint missed while disabled (`[since, until)`) for a later "Send missed events",
 * beside what it missed before and has not been sent yet; only when there is any.
 */
async function keepMissed(em: EntityManager, formId: string, endpoint: IWebhookEndpoint, since: Date, until: Date) {
  const plan = await planRecover(em, formId, endpoint, since, until);
  if (plan.events.length === 0 && plan.nextSince === null) return;
  endpoint.missedRanges = [...endpoint.missedRanges, { since: since.toISOString(), until: until.toISOString() }];
}

/**
 * A recover sent the events of `[since, until)`: each missed range it starts at or before (or at
 * the oldest a recover reaches, for one that began earlier) is narrowed to where it got, and
 * forgotten once sent whole, or once too old to send.
 */
function sentMissed(endpoint: IWebhookEndpoint, since: Date, until: Date, now: Date) {
  const reach = recoverReach(now);
  endpoint.missedRanges = endpoint.missedRanges.flatMap((range) => {
    const start = new Date(Math.max(Date.parse(range.since), reach.getTime()));
    const end = new Date(range.until);
    if (end <= reach) return [];
    if (since > start || until <= start) return [range];
    return until >= end ? [] : [{ since: until.toISOString(), until: range.until }];
  });
}

/** `findEndpoint`, locked for a change. */
const lockEndpoint = (em: EntityManager, formId: string, webhookId: string) => findEndpoint(em, formId, webhookId, true);

/** The plaintext of a sealed secret, or null when it was sealed under another key. */
function openable(box: SecretBox, sealed: string, context: string): string | null {
  try {
    return box.open(sealed, context);
  } catch {
    return null;
  }
}

/**
 * The URL, if lfk may send to it as far as its text tells (`LFK_WEBHOOK_ALLOW_PRIVATE` aside:
 * https, not a private address): a name is judged when sending, never here (no DNS oracle).
 */
function assertSendable(ctx: Context, url: string): void {
  const refusal = ctx.services.outbound.refusal(url);
  if (refusal) throw invalidField('url', refusal);
}

async function withLastDelivery(em: EntityManager, endpoints: IWebhookEndpoint[]) {
  const last = await em.getRepository(WebhookEndpoint).lastDeliveries(endpoints.map((e) => e.id));
  return endpoints.map((e) => webhookToWire(e, last.get(e.id)));
}

/** The delivery of the form's endpoint that the input names; another endpoint's, or a wrong-shaped id, is not found. */
async function findDelivery(ctx: Context & { form: { id: string } }, input: { webhook_id: string; delivery_id: string }) {
  const endpoint = await findEndpoint(ctx.em, ctx.form.id, input.webhook_id);
  const deliveries = ctx.em.getRepository(WebhookDelivery);
  const found = isId('whd', input.delivery_id) ? await deliveries.findOfEndpoint(endpoint.id, input.delivery_id) : null;
  if (!found) throw new ApiError('webhook_delivery_not_found');
  return { endpoint, found };
}

const oneWithLastDelivery = async (em: EntityManager, endpoint: IWebhookEndpoint) => (await withLastDelivery(em, [endpoint]))[0]!;

/** What a person or a key did to an endpoint (lfk's own `webhook.disabled` is recorded by the delivery job). */
type WebhookAction = Exclude<Extract<AuditAction, `webhook.${string}`>, 'webhook.disabled'>;

function audit(em: EntityManager, endpoint: IWebhookEndpoint, workspaceId: string, actor: Actor, action: WebhookAction, data: Record<string, unknown> = {}) {
  em.getRepository(AuditEvent).record({
    workspaceId,
    action,
    actor,
    target: { type: 'webhook', id: endpoint.id },
    // The host, not the URL: a receiver's path may itself be a secret (a Slack hook's is).
    data: { form_id: endpoint.form.id, host: new URL(endpoint.url).host, ...data },
  });
}

export const webhooksRouter = router({
  create: confirmedFormsScopeProcedure.meta(rest('POST /v1/forms/:form_id/webhooks', 201,
      'Add a webhook endpoint to a form; its signing secret (`whsec_…`) is in this answer only (with `ed25519` signing, no secret: its `public_key`)',
      { errors: ['form_not_found', 'webhook_limit_reached'], idempotent: true }))
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
        audit(em, record, workspaceId, ctx.actor, 'webhook.created');
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

  list: formsScopeProcedure.meta(rest('GET /v1/forms/:form_id/webhooks', 200,
      "A form's webhook endpoints, oldest first, never their secrets", { errors: ['form_not_found'] }))
    .input(webhookIdInput.pick({ form_id: true }))
    .output(listOf(webhook))
    .query(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const endpoints = await ctx.em.getRepository(WebhookEndpoint).listOfForm(form.id);
      return { data: await withLastDelivery(ctx.em, endpoints), next_cursor: null };
    }),

  get: formsScopeProcedure.meta(rest('GET /v1/forms/:form_id/webhooks/:webhook_id', 200,
      'One webhook endpoint of a form', { errors: ['form_not_found', 'webhook_not_found'] }))
    .input(webhookIdInput)
    .output(webhook)
    .query(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      return oneWithLastDelivery(ctx.em, await findEndpoint(ctx.em, form.id, input.webhook_id));
    }),

  update: formsScopeProcedure.meta(rest('PATCH /v1/forms/:form_id/webhooks/:webhook_id', 200,
      'Change an endpoint: its URL, description, events, or enabled (while it is disabled, new events are not sent to it; ' +
        'deliveries queued before wait, and go when it is enabled again). ' +
        'A new URL receives the events after the change; deliveries still waiting for the previous URL are `held` ' +
        "for a member's session to retry (to the new URL) or discard",
      { errors: ['form_not_found', 'webhook_not_found'] }))
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
          audit(em, found, form.workspace!.id, ctx.actor, 'webhook.updated', { fields: changed, ...(held ? { held } : {}) });
        }
        return { updated: found, resumed };
      });
      // Enabled or disabled, it may decide whether the form's submissions queue deliveries.
      if (input.enabled !== undefined) ctx.services.formCache.forget(form.id);
      if (resumed > 0) ctx.services.wakeWebhooks();
      return oneWithLastDelivery(ctx.em, updated);
    }),

  delete: formsScopeProcedure.meta(rest('DELETE /v1/forms/:form_id/webhooks/:webhook_id', 204,
      'Delete an endpoint; its pending deliveries are cancelled', { errors: ['form_not_found', 'webhook_not_found'] }))
    .input(webhookIdInput)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      await ctx.em.transactional(async (em) => {
        const found = await lockEndpoint(em, form.id, input.webhook_id);
        audit(em, found, form.workspace!.id, ctx.actor, 'webhook.deleted');
        // Its deliveries go with it (on delete cascade).
        em.remove(found);
      });
      ctx.services.formCache.forget(form.id);
    }),

  revealSecret: formMemberProcedure.meta(rest('GET /v1/forms/:form_id/webhooks/:webhook_id/secret', 200,
      "An endpoint's signing secret (members' sessions only; a key cannot read it). An `ed25519` endpoint shares none",
      { errors: ['webhook_not_found', 'webhook_not_signed', 'webhook_secret_not_shared'], sudo: true }))
    .input(webhookIdInput)
    .output(webhookSecret)
    .query(async ({ ctx, input }) => {
      const found = signing(await findEndpoint(ctx.em, ctx.form.id, input.webhook_id));
      if (found.signing !== 'hmac-sha256') throw new ApiError('webhook_secret_not_shared');
      await ctx.em.transactional(async (em) => {
        audit(em, found, ctx.form.workspace!.id, ctx.actor, 'webhook.secret_revealed');
      });
      return { secret: ctx.services.secretBox.open(found.secretSealed, secretContext(found.id, 'current')) };
    }),

  rotateSecret: formsScopeProcedure.meta(rest('POST /v1/forms/:form_id/webhooks/:webhook_id/rotate-secret', 201,
      'A new signing secret, in this answer only (with `ed25519` signing, a new key pair: its `public_key`). ' +
        'The one it replaces keeps signing beside it for 24 hours, as does each ' +
        `rotated away before within its own 24 hours (at most ${MAX_PREVIOUS_SECRETS}: a rotation past them ends the oldest at once)`,
      { errors: ['form_not_found', 'webhook_not_found', 'webhook_not_signed'] }))
    .input(webhookIdInput)
    .output(rotatedWebhookSecret)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const box = ctx.services.secretBox;
      const now = ctx.services.now();
      const { rotated, key } = await ctx.em.transactional(async (em) => {
        const found = signing(await lockEndpoint(em, form.id, input.webhook_id));
        const key = generateSigningKey(found.signing);
        const plain = openable(box, found.secretSealed, secretContext(found.id, 'current'));
        const current = { plain, publicKey: found.publicKey ?? null, number: found.secretNumber, createdAt: found.secretCreatedAt };
        found.previousSecrets = afterRotation(box, found, current, now);
        found.secretSealed = box.seal(key.secret, secretContext(found.id, 'current'));
        found.publicKey = key.publicKey;
        found.secretNumber += 1;
        found.secretCreatedAt = now;
        audit(em, found, form.workspace!.id, ctx.actor, 'webhook.secret_rotated');
        return { rotated: found, key };
      });
      const replaced = rotated.previousSecrets[0];
      return {
        secret: rotated.signing === 'hmac-sha256' ? key.secret : null,
        public_key: key.publicKey,
        number: rotated.secretNumber,
        previous_secret_expires_at: replaced?.number === rotated.secretNumber - 1 ? replaced.expires_at : null,
      };
    }),

  endSecret: formsScopeProcedure.meta(rest('DELETE /v1/forms/:form_id/webhooks/:webhook_id/secrets/:secret_number', 200,
      'Stop a secret rotated away from signing now, before its 24 hours are up (the current secret is replaced by rotating, not ended)',
      { errors: ['form_not_found', 'webhook_not_found', 'webhook_not_signed', 'webhook_secret_not_found'] }))
    .input(webhookSecretNumberInput)
    .output(webhook)
    .mutation(async ({ ctx, input }) => {
      const form = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const now = ctx.services.now();
      const updated = await ctx.em.transactional(async (em) => {
        const found = signing(await lockEndpoint(em, form.id, input.webhook_id));
        const live = livePrevious(found.previousSecrets, now);
        if (!live.some((secret) => secret.number === input.secret_number)) throw new ApiError('webhook_secret_not_found');
        found.previousSecrets = live.filter((secret) => secret.number !== input.secret_number);
        audit(em, found, form.workspace!.id, ctx.actor, 'webhook.secret_ended', { number: input.secret_number });
        return found;
      });
      return oneWithLastDelivery(ctx.em, updated);
    }),

  test: formsScopeProcedure.meta(rest('POST /v1/forms/:form_id/webhooks/:webhook_id/test', 200,
      'Send a signed `webhook.test` event to the endpoint now, and answer how it went; the delivery log keeps it, marked `test`',
      { errors: ['form_not_found', 'webhook_not_found'] }))
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

  deliveries: formMemberProcedure.meta(rest('GET /v1/forms/:form_id/webhooks/:webhook_id/deliveries', 200,
      "An endpoint's deliveries, newest first, each with its attempts and payload (members' sessions only: they hold submission values)",
      { errors: ['webhook_not_found'] }))
    .input(webhookDeliveryListInput)
    .output(listOf(webhookDelivery))
    .query(async ({ ctx, input }) => {
      const found = await findEndpoint(ctx.em, ctx.form.id, input.webhook_id);
      return pageWithin('whd', input, (before, bounds) => ctx.em.getRepository(WebhookDelivery).newestOfEndpoint(found.id, before, bounds), deliveryToWire);
    }),

  events: formMemberProcedure.meta(rest('GET /v1/forms/:form_id/events', 200,
      "The form's events after a cursor, in the order they committed, exactly as webhooks send them (members' sessions only): " +
        'what `lfk listen` forwards. With `wait`, an empty page is held until an event arrives or the wait is over (a long poll); ' +
        'a person holds at most `LFK_LONG_POLLS_PER_PERSON` such polls at once and a workspace `LFK_LONG_POLLS_PER_WORKSPACE`, ' +
        'then `429 rate_limited` with `Retry-After`',
      { errors: ['rate_limited'] }))
    .input(formEventsInput)
    .output(formEventPage)
    .query(async ({ ctx, input }) => {
      const submissions = ctx.em.getRepository(Submission);
      if (input.after === undefined) return { data: [], cursor: cursorOf(await submissions.streamNow()), has_more: false };
      // A cursor, or (as this feed gave before) an event id: where that event's submission stands.
      const after = positionOf(input.after) ?? (isId('msg', input.after) ? await submissions.streamPositionOf(ctx.form.id, submissionOfEvent(input.after)) : null);
      if (!after) throw invalidField('after', 'Not a cursor of this stream.');
      const bounds = { rows: input.limit, bytes: PAGE_MAX_BYTES };
      let page = await submissions.streamAfter(ctx.form.id, after, bounds);
      if (page.rows.length === 0 && input.wait > 0 && !ctx.services.longPolls.stopping) {
        // Held: a place of the person's and the workspace's, given back however the wait ends (news,
        // the wait over, the client gone, the server stopping). It waits on the shared watch, which
        // looks at every held poll's form in one statement; the page is read again only on news.
        const giveBack = ctx.services.longPolls.hold(ctx.session.userId, ctx.form.workspace!.id);
        try {
          const until = AbortSignal.any([AbortSignal.timeout(input.wait * 1000), ctx.services.longPolls.stopped, ctx.clientGone()]);
          while (page.rows.length === 0 && (await ctx.services.feedWatch.news(ctx.form.id, after, until))) {
            page = await submissions.streamAfter(ctx.form.id, after, bounds);
          }
        } finally {
          giveBack();
        }
      }
      const form = { id: ctx.form.id, name: ctx.form.name };
      const filesOf = await linkedFilesOf(ctx.em, ctx.services, ctx.form.workspace?.id ?? null, page.rows.map((row) => row.id));
      const data = page.rows.map((row) => ({
        id: submissionEventId(row.id),
        type: 'submission.created' as const,
        created_at: row.createdAt.toISOString(),
        payload: submissionCreatedPayload({ form, submission: { id: row.id, createdAt: row.createdAt, source: row.source, values: row.data }, files: filesOf(row.id) }),
      }));
      return { data, cursor: cursorOf(page.rows.at(-1)?.position ?? after), has_more: page.more };
    }),

  recover: formMemberProcedure.meta(rest('POST /v1/forms/:form_id/webhooks/:webhook_id/recover', 202,
      "Send the form's events of a time range (of the types the endpoint takes) to this endpoint again, as new deliveries " +
        "with their original `webhook-id`s, queued oldest first (members' sessions only). A submission's event is rebuilt from it as " +
        'it is now (one deleted or marked spam since is not sent); events already waiting for the endpoint are not queued twice. ' +
        `At most ${WEBHOOK_RECOVER_MAX_EVENTS} at once (\`next_since\` says where the rest start); they are taken a few at a time, ` +
        "so neither the endpoint's new events nor other endpoints' are held up",
      { errors: ['webhook_not_found', 'webhook_disabled'] }))
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
        audit(em, endpoint, ctx.form.workspace!.id, ctx.actor, 'webhook.recovered', { since: since.toISOString(), until: until.toISOString(), queued });
      });
      return { ...answer, queued };
    }),

  retryDelivery: formMemberProcedure.meta(rest('POST /v1/forms/:form_id/webhooks/:webhook_id/deliveries/:delivery_id/retry', 202,
      "One attempt now, with the same `webhook-id`, to the endpoint's URL as it is now (members' sessions only: " +
        'this is how a delivery `held` by a URL change is sent). It leaves the automatic schedule as it was: if it fails, ' +
        'the next automatic attempt comes when it would have',
      { errors: ['webhook_not_found', 'webhook_delivery_not_found', 'webhook_disabled', 'webhook_delivery_in_flight'] }))
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
        audit(em, endpoint, ctx.form.workspace!.id, ctx.actor, 'webhook.delivery_retried', { delivery_id: found.id });
        return true;
      });
      if (!retried) throw new ApiError('webhook_delivery_in_flight');
      ctx.services.wakeWebhooks();
      await ctx.em.refresh(found);
      return deliveryToWire(found);
    }),

  discardDelivery: formMemberProcedure.meta(rest('POST /v1/forms/:form_id/webhooks/:webhook_id/deliveries/:delivery_id/discard', 200,
      "Never send this delivery (members' sessions only): one waiting, `held` by a URL change, or failed becomes `discarded`. " +
        'It stays in the log, and a retry can still send it',
      { errors: ['webhook_not_found', 'webhook_delivery_not_found', 'webhook_delivery_in_flight', 'webhook_delivery_succeeded'] }))
    .input(webhookDeliveryIdInput)
    .output(webhookDelivery)
    .mutation(async ({ ctx, input }) => {
      const { endpoint, found } = await findDelivery(ctx, input);
      const outcome = await ctx.em.transactional(async (em) => {
        const outcome = await em.getRepository(WebhookDelivery).discard(found.id, new Date());
        if (outcome === 'discarded') audit(em, endpoint, ctx.form.workspace!.id, ctx.actor, 'webhook.delivery_discarded', { delivery_id: found.id });
        return outcome;
      });
      if (outcome === 'gone') throw new ApiError('webhook_delivery_not_found');
      if (outcome === 'in_flight') throw new ApiError('webhook_delivery_in_flight');
      if (outcome === 'succeeded') throw new ApiError('webhook_delivery_succeeded');
      await ctx.em.refresh(found);
      return deliveryToWire(found);
    }),
});
