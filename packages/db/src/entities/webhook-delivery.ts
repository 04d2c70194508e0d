import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS, WEBHOOK_DELIVERY_STATUSES } from '@lfk/vocabulary';
import { WebhookDeliveryRepository } from '../repositories/webhook-deliveries.ts';
import { BaseEntity } from './base.ts';
import { Submission } from './submission.ts';
import { WebhookEndpoint } from './webhook-endpoint.ts';

/** One attempt to deliver, as the delivery log shows it. */
export interface WebhookAttempt {
  at: string;
  /** The HTTP status the endpoint answered with; absent when it never answered. */
  status_code?: number;
  /** Why no usable answer came (a timeout, a refused address, a reset connection). */
  error?: string;
  duration_ms: number;
  /** The first KiB of the answer's body. */
  response_excerpt?: string;
  /** A member asked for it (Retry now): it did not move the automatic schedule. */
  requested?: true;
}

/**
 * One event on its way to one endpoint: a queue row written in the same transaction as the
 * submission it carries, taken by one replica at a time (`lockedUntil`), retried until it
 * succeeds or its attempts run out. `payload` is the body exactly as signed and sent.
 * `nextAttemptAt` is null while its endpoint is disabled: it waits, and is due again when
 * the endpoint is enabled. `url` is where it goes: the endpoint's URL when it was queued (or when
 * a member retried it), so an endpoint moved elsewhere never receives what was queued before.
 */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  extends: BaseEntity,
  repository: () => WebhookDeliveryRepository,
  properties: {
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule('cascade'),
    /** The submission it carries: deleting the submission cancels the delivery. */
    submission: () => p.manyToOne(Submission).nullable().deleteRule('cascade'),
    /** Where it is sent: its endpoint's URL when it was queued, or when a member last retried it. */
    url: p.string().length(TEXT_LIMITS.url),
    /** `webhook-id`: the event's id, the same on every attempt and for every endpoint. */
    eventId: p.string().length(40),
    type: p.string().length(64),
    payload: p.text(),
    status: p.enum(WEBHOOK_DELIVERY_STATUSES).default('pending'),
    attempts: p.json<WebhookAttempt[]>(),
    attemptCount: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    lockedUntil: p.datetime().nullable(),
    /**
     * Due, but its endpoint or workspace was at its cap of deliveries in flight when a claim came to
     * it: set aside, out of the claims' scan, and taken again once its endpoint and workspace have room.
     */
    waitingForRoom: p.boolean().default(false),
    /** A member asked for the next attempt (Retry now): it is not one of the schedule's. */
    retryRequested: p.boolean().default(false),
    /** When the automatic schedule had it due before that request: a failed requested attempt resumes it there. */
    resumeAt: p.datetime().nullable(),
    /** A test event a person or a key sent (`webhook.test`): logged with its one attempt, never retried by the schedule. */
    test: p.boolean().default(false),
  },
  indexes: [
    { properties: ['status', 'nextAttemptAt'] },
    { properties: ['endpoint', 'id'] },
    // Deleting a submission cancels its deliveries: the cascade finds them by it.
    { properties: ['submission'] },
    // The claim counts each endpoint's deliveries in flight.
    {
      name: 'webhook_deliveries_in_flight_index',
      expression:
        'create index "webhook_deliveries_in_flight_index" on "webhook_deliveries" ("endpoint_id") ' +
        `where "status" = 'pending' and "locked_until" is not null`,
    },
    // The claim's scan, in due order: what waits for room is not in it, so a deep backlog set aside behind a cap costs a claim nothing.
    {
      name: 'webhook_deliveries_due_index',
      expression:
        'create index "webhook_deliveries_due_index" on "webhook_deliveries" ("next_attempt_at") ' + `where "status" = 'pending' and not "waiting_for_room"`,
    },
    // What waits for room, by endpoint: the claim takes an endpoint's oldest again once it has room.
    {
      name: 'webhook_deliveries_waiting_index',
      expression:
        'create index "webhook_deliveries_waiting_index" on "webhook_deliveries" ("endpoint_id", "next_attempt_at") ' +
        `where "status" = 'pending' and "waiting_for_room"`,
    },
  ],
});
export type IWebhookDelivery = InferEntity<typeof WebhookDelivery>;
