import { type ClaimedEmail, Membership, type NewEmail, OutboxEmail } from '@lfk/db';
import { cutToLength, TEXT_LIMITS } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { SecretBox } from '../credentials/secret-box.ts';

/**
 * An email to queue. One whose link carries a secret (a verification, reset or invitation token)
 * names it, with the box to seal it in: the body is stored with a mark in its place, so the token
 * is never in the database in the clear, and the sender puts it back (`bodyToSend`).
 */
export type OutgoingEmail = Omit<NewEmail, 'secretSealed'> & { secret?: { token: string; box: SecretBox } };

/** Where a link's token stood in a stored body. */
const SECRET_MARK = '{{lfk:secret}}';
/** What a sealed token is bound to: it opens only for the address it was sent to. */
const sealedFor = (to: string) => `outbox:${to}`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const LINE_BREAKS_AND_CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * A header value on one line: whatever a subject was built from (a name stored by an older
 * version, say), a line break in it must never start a header of its own.
 */
export function oneLine(value: string): string {
  return value.replace(LINE_BREAKS_AND_CONTROLS, ' ');
}

/** The message as stored: one-line headers, the subject cut to its column, a link's token sealed. */
export function storedEmail(email: OutgoingEmail): NewEmail {
  const to = oneLine(email.to);
  const secret = email.secret;
  return {
    kind: email.kind,
    to,
    ...(email.replyTo ? { replyTo: oneLine(email.replyTo) } : {}),
    ...(email.html ? { html: email.html } : {}),
    ...(email.listUnsubscribe ? { listUnsubscribe: oneLine(email.listUnsubscribe) } : {}),
    // Cut to fit its column: a subject is built from stored names.
    subject: cutToLength(oneLine(email.subject), TEXT_LIMITS.emailSubject),
    body: secret ? email.body.replaceAll(secret.token, SECRET_MARK) : email.body,
    ...(secret ? { secretSealed: secret.box.seal(secret.token, sealedFor(to)) } : {}),
    ...(email.submissionId ? { submissionId: email.submissionId } : {}),
  };
}

/** The body as the sender sends it: a link's token, unsealed, back in its place. */
export function bodyToSend(email: ClaimedEmail, box: SecretBox): string {
  if (email.secretSealed === null) return email.body;
  return email.body.replaceAll(SECRET_MARK, box.open(email.secretSealed, sealedFor(email.to)));
}

/**
 * Queues an email on `em`: it is written in the same transaction as the change that causes it,
 * so it is sent if and only if that change is kept. The sender (apps/server) delivers it. It is
 * due at once by the wall clock, the one the sender polls by (not `services.now()`, which decides
 * what expires and which tests turn).
 */
export function enqueueEmail(em: EntityManager, email: OutgoingEmail): void {
  em.getRepository(OutboxEmail).enqueue(storedEmail(email), new Date());
}

/** `enqueueEmail` for a change written at once (not flushed): the email is written now, in `em`'s transaction. */
export function insertEmail(em: EntityManager, email: OutgoingEmail): Promise<void> {
  return em.getRepository(OutboxEmail).writeNow(storedEmail(email), new Date());
}

/** `insertEmail` of one email per owner of the workspace, built for each address. */
export async function emailOwners(em: EntityManager, workspaceId: string, build: (to: string) => OutgoingEmail): Promise<void> {
  for (const to of await em.getRepository(Membership).ownerEmails(workspaceId)) await insertEmail(em, build(to));
}

