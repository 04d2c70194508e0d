import type { FileReading, FormReading, SubmissionFormReading } from '@lfk/db';
import type { SubmissionSource } from '@lfk/vocabulary';
import type { StoredValue } from './validation.ts';
import type { Services } from '../../context.ts';
import { holdsMalware, linkFiles } from '../files/linked-files.ts';
import type { EntityManager } from '@mikro-orm/sql';
import { insertEmail, type OutgoingEmail } from '../../infrastructure/outbox.ts';
import { queueSubmissionCreated, queueSubmissionReleased } from '../webhooks/events.ts';
import { notifiedAddresses } from '../email-verification/notify-email.ts';
import { submissionEmail } from './notification-email.ts';
import { submissionLink } from '../../infrastructure/dashboard-links.ts';

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

/** A submission as what it sends tells of it. */
export interface SentSubmission {
  id: string;
  createdAt: Date;
  source: SubmissionSource;
  values: Record<string, StoredValue>;
  files: readonly FileReading[];
}

/** The submitter's address: the value of the form's first email field that has one (validated as an address). */
function submitterAddress(form: FormReading, values: Record<string, StoredValue>): string | null {
  for (const field of form.schema) {
    const value = values[field.name];
    if (field.type === 'email' && typeof value === 'string') return value;
  }
  return null;
}

/**
 * The notifications a real submission sends: one to each address it goes to now (the verified
 * `notify_emails`, or those kept while new ones are verified), none when the form notifies nobody.
 * A reply goes to the submitter, when the form has an email field.
 */
export function notificationsOf(form: FormReading, submission: SentSubmission, services: Pick<Services, 'publicUrl'>): OutgoingEmail[] {
  return notifiedAddresses(form).map((to) => notificationTo(to, form, submission, services));
}

/** The notification of a submission to one address. */
export function notificationTo(to: string, form: FormReading, submission: SentSubmission, services: Pick<Services, 'publicUrl'>): OutgoingEmail {
  return {
    ...submissionEmail({
      to,
      formName: form.name,
      fields: form.schema,
      values: submission.values,
      files: submission.files,
      link: form.workspace ? submissionLink(services.publicUrl, form.workspace.id, form.id, submission.id) : null,
      submissionId: submission.id,
      receivedAt: submission.createdAt,
    }),
    replyTo: submitterAddress(form, submission.values),
    submissionId: submission.id,
  };
}

/**
 * Whether a real submission queues webhook deliveries: when an enabled endpoint listens, and none
 * of its files is quarantined (malware is not sent on).
 */
export const deliversTo = (form: SubmissionFormReading, files: readonly Pick<FileReading, 'status'>[]) => form.hasWebhooks && !holdsMalware(files);

/** Queues the webhook deliveries of a real submission (`deliversTo`) in `em`'s transaction, with its files' signed links; none to `except`. */
export async function queueDeliveries(
  em: EntityManager,
  form: SubmissionFormReading,
  submission: SentSubmission,
  services: Pick<Services, 'files' | 'now'>,
  except: ReadonlySet<string> = new Set(),
): Promise<boolean> {
  if (!deliversTo(form, submission.files)) return false;
  const files = await linkFiles(em, services, form.workspace?.id ?? null, submission.files);
  return queueSubmissionCreated(em, { form: { id: form.id, name: form.name }, submission, files }, except);
}

/**
 * The `submission.released` event of a submission a member released from spam, recorded and queued
 * in `em`'s transaction, with its files' signed links; none when a file is quarantined (malware is
 * not sent on). True when a delivery was queued.
 */
export async function queueReleased(
  em: EntityManager,
  form: SubmissionFormReading,
  submission: SentSubmission,
  services: Pick<Services, 'files' | 'now'>,
): Promise<boolean> {
  if (holdsMalware(submission.files)) return false;
  const files = await linkFiles(em, services, form.workspace?.id ?? null, submission.files);
  return queueSubmissionReleased(em, { form: { id: form.id, name: form.name }, submission, files }, services.now());
}

/**
 * Queues what a real submission sends and has not (`already`), in `em`'s transaction (so they
 * exist if and only if it is kept): its notification and its webhook deliveries. Both are tied to
 * the submission: deleting it deletes them.
 */
export async function sendSubmission(
  em: EntityManager,
  form: SubmissionFormReading,
  submission: SentSubmission,
  services: Pick<Services, 'files' | 'now' | 'publicUrl'>,
  already: AlreadySent = NOTHING_YET,
): Promise<Sent> {
  const emails = already.email ? [] : notificationsOf(form, submission, services);
  for (const email of emails) await insertEmail(em, email);
  const deliveriesQueued = await queueDeliveries(em, form, submission, services, already.endpointIds);
  return { emailQueued: emails.length > 0, deliveriesQueued };
}
