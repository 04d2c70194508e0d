import { AuditEvent, type ClaimedDelivery, type Database, type EndpointForDelivery, WebhookDelivery, type WebhookAttempt, WebhookEndpoint } from '@lfk/db';
import { WEBHOOK_FAILING_DISABLE_MS, WEBHOOK_IN_FLIGHT_PER_ENDPOINT, WEBHOOK_IN_FLIGHT_PER_WORKSPACE, type WebhookDisabledReason } from '@lfk/vocabulary';
import type { SecretBox } from '../../credentials/secret-box.ts';
import type { QueueJob } from '../../infrastructure/queue-worker.ts';
import type { Metrics } from '../../metrics.ts';
import { emailOwners } from '../../infrastructure/outbox.ts';
import type { Log } from '../../log.ts';
import { SYSTEM_ACTOR } from '../../trpc.ts';
import { endpointDisabledEmail } from './emails.ts';
import type { AttemptResult, Outbound } from '../../infrastructure/outbound-requests.ts';
import { nextAttemptAfterFailure, RETRY_DELAYS_MS } from './retry-schedule.ts';
import { requestHeaders } from './signing.ts';
import { bodyFor } from './chat-messages.ts';

export interface DeliveryJobSettings {
  /** How long a replica holds a delivery it is attempting; after that another may take it. */
  lockMs: number;
  /** Deliveries to one endpoint in flight at once, across every replica. */
  perEndpoint: number;
  /** Deliveries of one workspace in flight at once, across every replica (`LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE`). */
  perWorkspace: number;
  /** The wait after each failed attempt (tests that retry by hand push the first one out of their way). */
  retryDelaysMs: readonly number[];
}

export const DEFAULT_DELIVERY_SETTINGS: DeliveryJobSettings = {
  lockMs: 60_000,
  perEndpoint: WEBHOOK_IN_FLIGHT_PER_ENDPOINT,
  perWorkspace: WEBHOOK_IN_FLIGHT_PER_WORKSPACE,
  retryDelaysMs: RETRY_DELAYS_MS,
};

export interface DeliveryJobDeps {
  db: Database;
  secretBox: SecretBox;
  outbound: Outbound;
  log: Log;
  publicUrl: string;
  wakeMailer(): void;
  /** Counts each attempt's outcome for `/metrics`. */
  metrics: Metrics;
}

interface Claimed extends ClaimedDelivery {
  endpoint: EndpointForDelivery | undefined;
}

export const isSuccess = (result: AttemptResult) => result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;

/** An attempt as the delivery log keeps it. */
export function attemptOf(at: Date, result: AttemptResult, requested = false): WebhookAttempt {
  return {
    at: at.toISOString(),
    ...(result.statusCode !== undefined ? { status_code: result.statusCode } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    duration_ms: result.durationMs,
    ...(result.excerpt !== undefined ? { response_excerpt: result.excerpt } : {}),
    ...(requested ? { requested: true as const } : {}),
  };
}

/**
 * One signed POST of the delivery (for a Slack or Discord endpoint, the message about its event,
 * unsigned). A secret that does not open (the server's `LFK_SECRET_KEY` is not the one it was sealed
 * with) is a failed attempt that says so, nothing sent, rather than an error that would keep the
 * delivery locked and say nothing in its log.
 */
async function attempt(deps: DeliveryJobDeps, endpoint: EndpointForDelivery, delivery: ClaimedDelivery, at: Date): Promise<AttemptResult> {
  const body = bodyFor(endpoint.kind, delivery.payload, { publicUrl: deps.publicUrl, workspaceId: endpoint.workspaceId });
  let headers: Record<string, string>;
  try {
    headers = requestHeaders(deps.secretBox, endpoint, delivery.eventId, at, body);
  } catch {
    return { error: 'the signing secret cannot be opened: is LFK_SECRET_KEY the key it was sealed with?', durationMs: 0 };
  }
  // The URL it was queued for, not the endpoint's: one moved since the claim gets nothing queued before.
  return deps.outbound.post(delivery.url, { ...headers }, body);
}

/**
 * Disables the endpoint for `reason` (once, whoever gets there first): its pending deliveries
 * wait, its workspace's owners are emailed, and the audit log says so. One transaction.
 */
async function disableEndpoint(deps: DeliveryJobDeps, endpoint: EndpointForDelivery, reason: Exclude<WebhookDisabledReason, 'manual'>, at: Date) {
  const emailed = await deps.db.fork().transactional(async (em) => {
    if (!(await em.getRepository(WebhookEndpoint).disable(endpoint.id, reason, at))) return false;
    await em.getRepository(WebhookDelivery).pauseOf(endpoint.id);
    if (endpoint.workspaceId === null) return false;
    em.getRepository(AuditEvent).record({
      workspaceId: endpoint.workspaceId,
      action: 'webhook.disabled',
      actor: SYSTEM_ACTOR,
      target: { type: 'webhook', id: endpoint.id },
      data: { form_id: endpoint.formId, reason },
    });
    await emailOwners(em, endpoint.workspaceId, (to) =>
      endpointDisabledEmail({ to, endpointId: endpoint.id, formId: endpoint.formId, formName: endpoint.formName, reason, publicUrl: deps.publicUrl }),
    );
    return true;
  });
  deps.log.warn({ endpoint_id: endpoint.id, reason }, 'webhook endpoint disabled');
  if (emailed) deps.wakeMailer();
}

/**
 * Webhook deliveries as a queue job: each claimed delivery is signed (Standard Webhooks, with
 * every secret that signs now), POSTed once, and its attempt recorded: a 2xx settles it, `410 Gone`
 * disables the endpoint, anything else is retried on the schedule until it runs out; an endpoint
 * failing for 3 days is disabled.
 */
export function deliveryJob(deps: DeliveryJobDeps, settings: DeliveryJobSettings = DEFAULT_DELIVERY_SETTINGS): QueueJob<Claimed> {
  return {
    name: 'webhooks',
    async claim(limit) {
      const em = deps.db.fork();
      const now = new Date();
      const { deliveries, more, capped } = await em
        .getRepository(WebhookDelivery)
        .claimDue(now, new Date(now.getTime() + settings.lockMs), limit, { perEndpoint: settings.perEndpoint, perWorkspace: settings.perWorkspace });
      if (deliveries.length === 0) return { items: [], more, capped };
      const endpoints = await em.getRepository(WebhookEndpoint).forDelivery([...new Set(deliveries.map((d) => d.endpointId))]);
      return { items: deliveries.map((delivery) => ({ ...delivery, endpoint: endpoints.get(delivery.endpointId) })), more, capped };
    },

    async perform(delivery) {
      // Deleted since it was claimed: its deliveries went with it.
      const endpoint = delivery.endpoint;
      if (!endpoint) return;
      const at = new Date();
      const result = await attempt(deps, endpoint, delivery, at);
      const logged = attemptOf(at, result, delivery.requested);
      const em = deps.db.fork();
      const deliveries = em.getRepository(WebhookDelivery);
      const endpoints = em.getRepository(WebhookEndpoint);
      const fields = { delivery_id: delivery.id, endpoint_id: endpoint.id, event_id: delivery.eventId, attempt: delivery.attemptCount };
      if (isSuccess(result)) {
        const held = await deliveries.recordAttempt(delivery.id, delivery.lockedUntil, logged, 'succeeded', null);
        if (held && endpoint.failingSince !== null) await endpoints.clearFailing(endpoint.id);
        deps.log.info({ ...fields, status_code: result.statusCode, duration_ms: result.durationMs }, 'webhook delivered');
        deps.metrics.webhookAttempted('delivered');
        return;
      }
      const gone = result.statusCode === 410;
      const next = gone ? null : nextAttemptAfterFailure({ ...delivery, retryAfterMs: result.retryAfterMs }, at, settings.retryDelaysMs);
      const held = await deliveries.recordAttempt(delivery.id, delivery.lockedUntil, logged, next ? 'pending' : 'failed', next);
      deps.metrics.webhookAttempted(next ? 'retrying' : 'failed');
      deps.log.warn(
        {
          ...fields,
          status_code: result.statusCode,
          error: result.error,
          cause: result.cause,
          duration_ms: result.durationMs,
          next_attempt_at: next?.toISOString() ?? null,
        },
        next ? 'webhook not delivered; will retry' : 'webhook not delivered; no attempts left',
      );
      // An attempt that outlived its lock, or went to a URL the endpoint has moved from, says nothing of the endpoint now.
      if (!held) return;
      if (gone) return disableEndpoint(deps, endpoint, 'gone', at);
      const failingSince = await endpoints.markFailing(endpoint.id, at);
      // Disabled once it has failed for 3 days, or once a delivery has run out of attempts (about as
      // long) with no success in between: a quiet endpoint with one failing delivery is caught too.
      const failedLongEnough = failingSince !== null && at.getTime() - failingSince.getTime() >= WEBHOOK_FAILING_DISABLE_MS;
      if (failedLongEnough || next === null) await disableEndpoint(deps, endpoint, 'failing', at);
    },
  };
}
