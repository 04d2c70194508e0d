import type { FileReading, SubmissionFormReading } from '@lfk/db';
import type { SubmissionSource } from '@lfk/vocabulary';
import type { StoredValue } from './validation.ts';
import type { Services } from '../../context.ts';
import { linkFiles } from '../files/linked-files.ts';
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
 * the webhook deliveries, with its files' signed links — none while a file of it is quarantined:
 * malware is not sent on. Both are tied to the submission: deleting it deletes them.
 */
export async function sendSubmission(
  em: EntityManager,
  form: SubmissionFormReading,
  submission: { id: string; createdAt: Date; source: SubmissionSource; values: Record<string, StoredValue>; files: readonly FileReading[] },
  services: Pick<Services, 'files' | 'now' | 'publicUrl'>,
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
        files: submission.files,
        link: form.workspace ? `${services.publicUrl.replace(/\/+$/, '')}/w/${form.workspace.id}/forms/${form.id}/submissions` : null,
        submissionId: submission.id,
        receivedAt: submission.createdAt,
      }),
      submissionId: submission.id,
    });
  }
  const quarantined = submission.files.some((file) => file.status === 'quarantined');
  const deliveriesQueued = form.hasWebhooks && !quarantined
    ? await queueSubmissionCreated(
        em,
        { form: { id: form.id, name: form.name }, submission, files: await linkFiles(em, services, form.workspace?.id ?? null, submission.files) },
        already.endpointIds,
      )
    : false;
  return { emailQueued: notify !== null, deliveriesQueued };
}
