import { DAY_MS } from './time.ts';

/**
 * The events an endpoint may subscribe to: a submission made (or released from spam unsent), a
 * submission released from spam by a member, deleted by a person or a key, and a form closed or
 * reopened by a person. `webhook.test` is sent on request only, never subscribed.
 */
export const WEBHOOK_EVENT_TYPES = ['submission.created', 'submission.released', 'submission.deleted', 'form.closed', 'form.reopened'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * What an endpoint is: a `webhook` receives each event as signed JSON; a `slack` or `discord` one
 * is an incoming-webhook URL of theirs (or of a service that takes their format, such as
 * Mattermost's), and receives a readable message about the event instead.
 */
export const WEBHOOK_KINDS = ['webhook', 'slack', 'discord'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/**
 * Whether an endpoint of this kind signs its requests. Slack and Discord check no signature (their
 * URL is the secret), so their messages go unsigned and they have no secret to reveal or rotate.
 */
export const signsRequests = (kind: WebhookKind): boolean => kind === 'webhook';

/**
 * How an endpoint signs: with a secret it shares with the receiver (`whsec_…`, HMAC-SHA256,
 * Standard Webhooks' `v1`), or with a private key that never leaves lfk, the receiver holding
 * only its public key (`whpk_…`, Ed25519, Standard Webhooks' `v1a`).
 */
export const WEBHOOK_SIGNING_SCHEMES = ['hmac-sha256', 'ed25519'] as const;
export type WebhookSigningScheme = (typeof WEBHOOK_SIGNING_SCHEMES)[number];

/** Endpoints one form may have. */
export const MAX_WEBHOOKS_PER_FORM = 5;

/**
 * Deliveries to one endpoint in flight at once, across every replica: a slow or dead receiver holds
 * this many, never the queue. Also the connections kept open to one receiver.
 */
export const WEBHOOK_IN_FLIGHT_PER_ENDPOINT = 16;

/**
 * Deliveries of one workspace in flight at once, across every replica (the default of
 * `LFK_WEBHOOK_IN_FLIGHT_PER_WORKSPACE`): a workspace whose receivers all hang holds this many of
 * the replicas' slots, never the others' share.
 */
export const WEBHOOK_IN_FLIGHT_PER_WORKSPACE = 32;

/**
 * A delivery waits for its next attempt, reached its endpoint, or failed for good; `held`: it was
 * queued for a URL the endpoint has since moved from, and waits for a member to retry it (to the
 * current URL) or discard it; `discarded`: a member chose not to send it.
 */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'held', 'discarded'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * Why an endpoint is disabled: a person turned it off, it answered `410 Gone`, or every delivery
 * to it failed for `WEBHOOK_FAILING_DISABLE_DAYS`.
 */
export const WEBHOOK_DISABLED_REASONS = ['manual', 'gone', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** An endpoint every attempt to which has failed this many days is disabled, and its owners are told. */
export const WEBHOOK_FAILING_DISABLE_DAYS = 3;
export const WEBHOOK_FAILING_DISABLE_MS = WEBHOOK_FAILING_DISABLE_DAYS * DAY_MS;

/** Why an endpoint is disabled, as the end of a sentence: the CLI's `disabled (…)`, the dashboard's `Disabled: ….` */
export const WEBHOOK_DISABLED_WHY: Readonly<Record<WebhookDisabledReason, string>> = {
  manual: 'by a person',
  gone: 'the receiver answered 410 Gone',
  failing: `every delivery failed for ${WEBHOOK_FAILING_DISABLE_DAYS} days`,
};

/**
 * How far back a recover reaches, and how long a form's events other than `submission.created`
 * are kept for it (a `submission.created` event is rebuilt from its submission while that is kept).
 */
export const WEBHOOK_RECOVER_MAX_DAYS = 30;

/** Events one recover queues at most; the answer's `next_since` says where the rest start. */
export const WEBHOOK_RECOVER_MAX_EVENTS = 10_000;
