import type { IWebhookDelivery, IWebhookEndpoint } from '@lfk/db';
import { signsRequests, type WebhookDeliveryStatus } from '@lfk/vocabulary';
import { recoverReach } from './recover.ts';
import type { z } from 'zod';
import { iso, isoOrNull } from '../../infrastructure/wire.ts';
import type { webhook, webhookAttempt, webhookDelivery } from './schemas.ts';
import type { AttemptResult } from '../../infrastructure/outbound-requests.ts';
import { attemptOf } from './delivery-job.ts';
import { livePrevious } from './secrets.ts';

/**
 * What it missed while disabled and has not been sent, as a recover can still send it: from no
 * further back than recovering reaches. None when nothing waits, or all of it is too old.
 */
function missedOf(e: IWebhookEndpoint, now: Date) {
  const reach = recoverReach(now);
  return e.missedRanges
    .filter((range) => new Date(range.until) > reach)
    .map((range) => ({ since: iso(new Date(Math.max(Date.parse(range.since), reach.getTime()))), until: range.until }));
}

export type LastDelivery = { at: Date; status: WebhookDeliveryStatus } | undefined;

/** An endpoint as answered: never its secrets' values; which sign now, read at `now`. */
export const webhookToWire = (e: IWebhookEndpoint, last: LastDelivery, now = new Date()): z.input<typeof webhook> => {
  const signed = signsRequests(e.kind);
  const previous = signed ? livePrevious(e.previousSecrets, now) : [];
  return {
    id: e.id,
    form_id: e.form.id,
    url: e.url,
    kind: e.kind,
    description: e.description ?? null,
    events: e.events as z.input<typeof webhook>['events'],
    enabled: e.enabled,
    disabled_reason: e.disabledReason ?? null,
    disabled_at: e.enabled ? null : isoOrNull(e.disabledAt),
    missed: missedOf(e, now),
    last_delivery_at: isoOrNull(last?.at),
    last_status: last?.status ?? null,
    signing: signed ? e.signing : null,
    public_key: signed ? (e.publicKey ?? null) : null,
    secrets: [
      ...(signed ? [{ number: e.secretNumber, created_at: iso(e.secretCreatedAt), expires_at: null, public_key: e.publicKey ?? null }] : []),
      ...previous.map((secret) => ({
        number: secret.number,
        created_at: secret.created_at,
        expires_at: secret.expires_at,
        public_key: secret.public_key ?? null,
      })),
    ],
    // The one the last rotation replaced, if it still signs.
    previous_secret_expires_at: previous.find((secret) => secret.number === e.secretNumber - 1)?.expires_at ?? null,
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
  };
};

/** An attempt's fields as the wire writes them: every one present, null when it does not apply. */
export const attemptFieldsToWire = (a: { status_code?: number; error?: string; duration_ms: number; response_excerpt?: string }) => ({
  status_code: a.status_code ?? null,
  error: a.error ?? null,
  duration_ms: a.duration_ms,
  response_excerpt: a.response_excerpt ?? null,
});

/** A test event's outcome: the attempt as the log would keep it, without its time. */
export const testResultToWire = (result: AttemptResult, succeeded: boolean) => ({
  status: succeeded ? ('succeeded' as const) : ('failed' as const),
  ...attemptFieldsToWire(attemptOf(new Date(), result)),
});

export const deliveryToWire = (d: IWebhookDelivery): z.input<typeof webhookDelivery> => ({
  id: d.id,
  event_id: d.eventId,
  type: d.type,
  url: d.url,
  status: d.status,
  attempts: d.attempts.map((a): z.input<typeof webhookAttempt> => ({ at: a.at, ...attemptFieldsToWire(a), requested: a.requested === true })),
  next_attempt_at: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
  // Written by events.ts as the event's schema says.
  payload: JSON.parse(d.payload) as z.input<typeof webhookDelivery>['payload'],
  test: d.test,
  created_at: iso(d.createdAt),
});
