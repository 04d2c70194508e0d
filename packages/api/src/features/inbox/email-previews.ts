import type { FormReading, StoredField } from '@lfk/db';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import type { OutgoingEmail } from '../../infrastructure/outbox.ts';
import { autoReplyTo } from '../auto-replies/sending.ts';
import { notifiedAddresses } from '../email-verification/notify-email.ts';
import { notificationTo } from './fan-out.ts';
import type { StoredValue } from './validation.ts';

const emailPreview = z
  .object({
    to: z.string(),
    reply_to: z.string().nullable(),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable(),
    list_unsubscribe: z.string().nullable().describe('The stop link an auto-reply carries in `List-Unsubscribe`.'),
  })
  .meta({ id: 'EmailPreview' });

export const emailPreviews = z
  .object({
    notification: emailPreview.nullable().describe('The notification, as its first address would get it; null when the form has no address.'),
    auto_reply: emailPreview.nullable().describe('The auto-reply, to the sample address; null when the form has none (enabled or not, it is shown).'),
  })
  .meta({ id: 'EmailPreviews' });

/** The address the previews give the person who submits. */
const SAMPLE_ADDRESS = 'someone@example.com';

/** A value of each field as a person might give it: what the previews fill in. */
function sampleValue(field: StoredField): StoredValue | undefined {
  switch (field.type) {
    case 'email':
      return SAMPLE_ADDRESS;
    case 'textarea':
      return 'A few lines of text,\nas a person writes them.';
    case 'number':
      return 42;
    case 'url':
      return 'https://example.com';
    case 'tel':
      return '+44 20 7946 0958';
    case 'date':
      return '2026-11-27';
    case 'checkbox':
      return true;
    case 'select':
      return field.options?.[0];
    case 'file':
      // What an auto-reply's placeholder of a file field shows: the files' names.
      return ['document.pdf'];
    default:
      return field.label ?? field.name;
  }
}

const previewOf = (email: OutgoingEmail) => ({
  to: email.to,
  reply_to: email.replyTo ?? null,
  subject: email.subject,
  text: email.body,
  html: email.html ?? null,
  list_unsubscribe: email.listUnsubscribe ?? null,
});

/**
 * What a submission of sample values would send, built by the code that sends the real ones: the
 * notification to the form's first address, and the auto-reply to the sample address.
 */
export async function previewEmails(
  services: Pick<Services, 'db' | 'secretBox' | 'publicUrl' | 'now'>,
  form: FormReading,
): Promise<z.input<typeof emailPreviews>> {
  const values: Record<string, StoredValue> = {};
  for (const field of form.schema) {
    const value = sampleValue(field);
    if (value !== undefined) values[field.name] = value;
  }
  const submission = { id: 'sub_sample', createdAt: services.now(), source: 'browser' as const, values, files: [] };
  const to = notifiedAddresses(form)[0] ?? form.notifyEmails[0]?.email;
  const autoReply = form.autoReply ? await autoReplyTo(services, SAMPLE_ADDRESS, form, values) : null;
  return {
    notification: to ? previewOf(notificationTo(to, form, submission, services)) : null,
    auto_reply: autoReply ? previewOf(autoReply) : null,
  };
}
