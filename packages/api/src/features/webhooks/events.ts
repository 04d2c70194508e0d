import { type DeletedSubmission, FormEvent, newId, WebhookDelivery, WebhookEndpoint } from '@lfk/db';
import type { SubmissionSource, WebhookEventType } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { z } from 'zod';
import type { submissionCreatedEvent, submissionReleasedEvent } from './schemas.ts';
import type { linkedFile } from '../files/schemas.ts';

/** What a `submission.created` event carries. */
export interface SubmissionEvent {
  form: { id: string; name: string };
  submission: { id: string; createdAt: Date; source: SubmissionSource; values: Record<string, unknown> };
  /** Its files as the payload carries them, each with its signed link. */
  files: z.input<typeof linkedFile>[];
}

/**
 * A submission's `submission.created` event id (`webhook-id`): its own id's time-sortable body
 * under the `msg_` prefix, so every endpoint, every retry and `lfk listen` name it alike.
 */
export const submissionEventId = (submissionId: string) => `msg_${submissionId.slice('sub_'.length)}`;

/** The submission a `submission.created` event id names. */
export const submissionOfEvent = (eventId: string) => `sub_${eventId.slice('msg_'.length)}`;

/** An event's body exactly as it is signed and sent. */
export function eventBody(type: string, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** A `submission.created` event as its receivers parse it. */
export function submissionCreatedPayload(event: SubmissionEvent): z.input<typeof submissionCreatedEvent> {
  const { form, submission, files } = event;
  return {
    type: 'submission.created',
    timestamp: submission.createdAt.toISOString(),
    data: {
      form: { id: form.id, name: form.name },
      submission: {
        id: submission.id,
        form_id: form.id,
        created_at: submission.createdAt.toISOString(),
        via: submission.source,
        values: submission.values as Record<string, string | number | boolean | string[]>,
        files,
      },
    },
  };
}

/** The same event exactly as it is signed and sent. */
export const submissionCreatedBody = (event: SubmissionEvent): string => JSON.stringify(submissionCreatedPayload(event));

/** The `submission.released` event of a submission a member released from spam, as its receivers parse it. */
export function submissionReleasedPayload(event: SubmissionEvent, at: Date): z.input<typeof submissionReleasedEvent> {
  return { type: 'submission.released', timestamp: at.toISOString(), data: submissionCreatedPayload(event).data };
}

/** One of a form's events other than `submission.created`: its data, and the submission it is about. */
interface OtherEvent {
  data: unknown;
  submissionId: string | null;
}

/**
 * Records the form's events of one type other than `submission.created` (kept for a recover: see
 * `FormEvent`), each with an id of its own, and queues them for each enabled endpoint of the form
 * subscribed to the type, in `em`'s transaction (the change and its events commit together). True
 * when any delivery was queued (the caller wakes the delivery worker once it has committed).
 */
async function recordEvents(
  em: EntityManager,
  formId: string,
  type: Exclude<WebhookEventType, 'submission.created'>,
  at: Date,
  events: readonly OtherEvent[],
): Promise<boolean> {
  if (events.length === 0) return false;
  const recorded = events.map((event) => ({
    id: newId('msg'),
    type,
    submissionId: event.submissionId,
    payload: eventBody(type, at, event.data),
    createdAt: at,
  }));
  await em.getRepository(FormEvent).record(formId, recorded);
  const endpoints = await em.getRepository(WebhookEndpoint).subscribedTo(formId, type);
  if (endpoints.length === 0) return false;
  // A delivery about a submission is cancelled with it (on delete cascade), but a deletion's own.
  const tied = type !== 'submission.deleted';
  await em.getRepository(WebhookDelivery).writeEvents(
    endpoints,
    recorded.map((event) => ({ eventId: event.id, type, payload: event.payload, submissionId: tied ? event.submissionId : null })),
    at,
  );
  return true;
}

/** `form.closed` or `form.reopened`: a person closed the form, or opened it again (see `recordEvents`). */
export function queueFormStateChanged(
  em: EntityManager,
  form: { id: string; name: string; closedMessage?: string | null | undefined },
  type: 'form.closed' | 'form.reopened',
  at: Date,
): Promise<boolean> {
  const data = { form: { id: form.id, name: form.name, ...(type === 'form.closed' ? { closed_message: form.closedMessage ?? null } : {}) } };
  return recordEvents(em, form.id, type, at, [{ data, submissionId: null }]);
}

/** `submission.released`: a member released the submission from spam (see `recordEvents`). */
export function queueSubmissionReleased(em: EntityManager, event: SubmissionEvent, at: Date): Promise<boolean> {
  return recordEvents(em, event.form.id, 'submission.released', at, [{ data: submissionReleasedPayload(event, at).data, submissionId: event.submission.id }]);
}

/**
 * `submission.deleted`, one for each real submission deleted (spam was never sent, so receivers
 * never heard of it): see `recordEvents`.
 */
export function queueSubmissionsDeleted(
  em: EntityManager,
  form: { id: string; name: string },
  deleted: readonly DeletedSubmission[],
  at: Date,
): Promise<boolean> {
  const told = deleted.filter((submission) => submission.status === 'ok');
  return recordEvents(
    em,
    form.id,
    'submission.deleted',
    at,
    told.map((submission) => ({
      data: { form: { id: form.id, name: form.name }, submission: { id: submission.id, form_id: form.id, created_at: submission.createdAt.toISOString() } },
      submissionId: submission.id,
    })),
  );
}

/**
 * Queues the submission's `submission.created` deliveries, one per enabled endpoint of its form
 * that listens to it (but those in `except`, which have one), in `em`'s transaction: they exist if
 * and only if the submission does. True when any was queued (the caller wakes the delivery worker).
 */
export async function queueSubmissionCreated(em: EntityManager, event: SubmissionEvent, except: ReadonlySet<string> = new Set()): Promise<boolean> {
  const endpoints = (await em.getRepository(WebhookEndpoint).subscribedTo(event.form.id, 'submission.created')).filter((e) => !except.has(e.id));
  if (endpoints.length === 0) return false;
  await em.getRepository(WebhookDelivery).writeNow(
    {
      endpoints,
      eventId: submissionEventId(event.submission.id),
      type: 'submission.created',
      payload: submissionCreatedBody(event),
      submissionId: event.submission.id,
    },
    new Date(),
  );
  return true;
}
