import type { SubmissionFormReading } from '@lfk/db';
import type { SubmissionSource } from '@lfk/vocabulary';
import type { SubmissionValue } from './validation.ts';
import type { EntityManager } from '@mikro-orm/sql';
import { insertEmail } from '../../infrastructure/outbox.ts';
import { queueSubmissionCreated } from '../webhooks/events.ts';
import { notificationsTo } from '../email-verification/notify-email.ts';
import { submissionEmail } from './notification-email.ts';

export interface Sent {
  emailQueued: boolean;
  deliveriesQueued: boolean;
}

/** What a submission has already sent or has waiting: nothing, for a new one. */
export interface AlreadySent {
  email: boolean;
  endpointIds: ReadonlySet<string>;
}

const NOTHING_YET: AlreadySent = { email: false, endpointIds: new Set() };

/**
 * Queues what a real submission sends and has not (`already`), in `em`'s transaction (so they
 * exist if and only if it is kept): the notification (to the form's verified `notify_email`, or the address kept
 * while a new one is verified), and
 * the webhook deliveries. Both are tied to the submission: deleting it deletes them.
 */
export async function sendSubmission(
  em: EntityManager,
  form: SubmissionFormReading,
  submission: { id: string; createdAt: Date; source: SubmissionSource; values: Record<string, SubmissionValue> },
  already: AlreadySent = NOTHING_YET,
): Promise<Sent> {
  const notify = already.email ? null : notificationsTo(form);
  if (notify) {
    await insertEmail(em, {
      ...submissionEmail({
        to: notify,
        formName: form.name,
        fields: form.schema,
        values: submission.values,
        submissionId: submission.id,
        receivedAt: submission.createdAt,
      }),
      submissionId: submission.id,
    });
  }
  const deliveriesQueued = form.hasWebhooks
    ? await queueSubmissionCreated(em, { form: { id: form.id, name: form.name }, submission }, already.endpointIds)
    : false;
  return { emailQueued: notify !== null, deliveriesQueued };
}
