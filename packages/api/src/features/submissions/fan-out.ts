import type { SubmissionFormReading, SubmissionSource } from '@lfk/db';
import type { SubmissionValue } from './validation.ts';
import type { EntityManager } from '@mikro-orm/sql';
import { insertEmail } from '../../infrastructure/outbox.ts';
import { queueSubmissionCreated } from '../webhooks/events.ts';
import { submissionEmail } from './notification-email.ts';

export interface Sent {
  emailQueued: boolean;
  deliveriesQueued: boolean;
}

/**
 * Queues what a real submission sends, in `em`'s transaction (so they exist if and only if it is
 * kept): the notification to the form's verified `notify_email`, and the webhook deliveries.
 * Both are tied to the submission: deleting it deletes them.
 */
export async function sendSubmission(
  em: EntityManager,
  form: SubmissionFormReading,
  submission: { id: string; createdAt: Date; source: SubmissionSource; values: Record<string, SubmissionValue> },
): Promise<Sent> {
  const notify = form.notifyEmailVerified ? form.notifyEmail : null;
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
    ? await queueSubmissionCreated(em, { form: { id: form.id, name: form.name }, submission })
    : false;
  return { emailQueued: notify !== null, deliveriesQueued };
}
