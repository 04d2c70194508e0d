/**
 * An outbox email's row: its shape as written and as claimed, and the statement that writes it. A
 * leaf, so the submissions repository writes a notification in the submission's own statement
 * without importing the outbox's repository and entity.
 */
import { newId } from '../ids.ts';

/** A message to send, as the outbox stores it. */
export interface NewEmail {
  /** What the email is for (`verification`, `submission`); shown in logs, never its body. */
  kind: string;
  to: string;
  subject: string;
  body: string;
  /** Where a reply goes (a notification's submitter), when not to lfk's own address. */
  replyTo?: string | null;
  /** An HTML rendering of the body, sent beside it. */
  html?: string | null;
  /** The URL that stops such mail to this address (`List-Unsubscribe`, one click). */
  listUnsubscribe?: string | null;
  /** The token its link carries, sealed (the body holds a mark in its place). */
  secretSealed?: string;
  /** The submission it carries (a notification), so the email goes when the submission is deleted. */
  submissionId?: string;
}

/** A message taken for sending: what the transport needs, and which attempt this is. */
export interface ClaimedEmail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  body: string;
  replyTo: string | null;
  html: string | null;
  listUnsubscribe: string | null;
  /** The token to put back into the body, sealed; null for an email without one. */
  secretSealed: string | null;
  attempts: number;
}

/** An email's row, for every statement that writes one: its columns, then `outboxEmailRow`'s 14 values. */
export const INSERT_OUTBOX_EMAIL =
  'insert into outbox_emails (id, kind, "to", subject, body, reply_to, html, list_unsubscribe, secret_sealed, submission_id, status, attempts, ' +
  'next_attempt_at, created_at)';

/** The values of `INSERT_OUTBOX_EMAIL` for a message due at once. */
export const outboxEmailRow = (email: NewEmail, now: Date) => [
  newId('eml'),
  email.kind,
  email.to,
  email.subject,
  email.body,
  email.replyTo ?? null,
  email.html ?? null,
  email.listUnsubscribe ?? null,
  email.secretSealed ?? null,
  email.submissionId ?? null,
  'pending',
  0,
  now,
  now,
];
