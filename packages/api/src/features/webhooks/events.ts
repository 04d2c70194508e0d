import { newId, WebhookDelivery, WebhookEndpoint } from '@lfk/db';
import type { SubmissionSource } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { z } from 'zod';
import type { submissionCreatedEvent } from './schemas.ts';
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

/**
 * Queues the submission's deliveries, one per enabled endpoint of its form that listens to
 * `submission.created` (but those in `except`, which have one), in `em`'s transaction: they exist
 * if and only if the submission does. True when any was queued (the caller wakes the delivery worker).
 */
/**
 * Queues `form.closed` or `form.reopened` for each enabled endpoint of the form subscribed to it,
 * in `em`'s transaction (the change and its events commit together). True when any was queued (the
 * caller wakes the delivery worker once it has committed).
 */
export async function queueFormStateChanged(
  em: EntityManager,
  form: { id: string; name: string; closedMessage?: string | null | undefined },
  type: 'form.closed' | 'form.reopened',
  at: Date,
): Promise<boolean> {
  const endpoints = await em.getRepository(WebhookEndpoint).subscribedTo(form.id, type);
  if (endpoints.length === 0) return false;
  const data = { form: { id: form.id, name: form.name, ...(type === 'form.closed' ? { closed_message: form.closedMessage ?? null } : {}) } };
  await em.getRepository(WebhookDelivery).writeNow({ endpoints, eventId: newId('msg'), type, payload: eventBody(type, at, data), submissionId: null }, at);
  return true;
}

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
