import { type NewEmail, OutboxEmail, TEXT_LIMITS } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const LINE_BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * A header value on one line: whatever a subject was built from (a name stored by an older
 * version, say), a line break in it must never start a header of its own.
 */
export function oneLine(value: string): string {
  return value.replace(LINE_BREAKS_AND_CONTROLS, ' ');
}

/** The message as stored: one-line headers, the subject cut to its column. */
function stored(email: NewEmail): NewEmail {
  return {
    kind: email.kind,
    to: oneLine(email.to),
    // Cut by whole characters to fit its column: a subject is built from stored names.
    subject: Array.from(oneLine(email.subject)).slice(0, TEXT_LIMITS.emailSubject).join(''),
    body: email.body,
    ...(email.submissionId ? { submissionId: email.submissionId } : {}),
  };
}

/**
 * Queues an email on `em`: it is written in the same transaction as the change that causes it,
 * so it is sent if and only if that change is kept. The sender (apps/server) delivers it. It is
 * due at once by the wall clock, the one the sender polls by (not `services.now()`, which decides
 * what expires and which tests turn).
 */
export function enqueueEmail(em: EntityManager, email: NewEmail): void {
  em.getRepository(OutboxEmail).enqueue(stored(email), new Date());
}

/** `enqueueEmail` for a change written at once (not flushed): the email is written now, in `em`'s transaction. */
export function insertEmail(em: EntityManager, email: NewEmail): Promise<void> {
  return em.getRepository(OutboxEmail).writeNow(stored(email), new Date());
}

