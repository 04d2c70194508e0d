import { type ClaimedEmail, Membership, type NewEmail, OutboxEmail } from '@lfk/db';
import { cutToLength, TEXT_LIMITS } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { SecretBox } from '../credentials/secret-box.ts';
import { sha256 } from '../credentials/secrets.ts';
import { ApiError } from '../errors.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';

/**
 * Every kind of email lfk sends, and whose doing it is that an address gets it:
 * - `named`: someone else named the address (a form's maker its notification address, an owner an
 *   invitee, a visitor the address an auto-reply answers, whoever signed up with it): each spends
 *   the address's allowance of mail it did not ask for (`unasked_emails`), whatever queued it.
 * - `asked`: the address's own holder asked for it (a password reset, limited per address by
 *   `password_reset_emails`), or it tells an account's holder what their own session did.
 * - `proved`: to an address that proved it reads its mail (a verified notification address) or to
 *   a workspace's owners, about their own workspace (a key leaked or expiring, a webhook stopped).
 * A new kind must be named here (its type is this table's keys), and the every-email test needs a
 * case for it.
 */
export const EMAIL_KINDS = {
  verification: 'named',
  invitation: 'named',
  auto_reply: 'named',
  draft_link: 'named',
  account_verification: 'named',
  password_reset: 'asked',
  password_changed: 'asked',
  two_factor_changed: 'asked',
  device_signed_in: 'asked',
  submission: 'proved',
  api_key_leaked: 'proved',
  api_key_expiring: 'proved',
  webhook_disabled: 'proved',
} as const satisfies Record<string, 'named' | 'asked' | 'proved'>;
export type EmailKind = keyof typeof EMAIL_KINDS;

/** The mark that a `named` email spent its address's allowance: only `allowsUnasked` and `spendUnasked` make it. */
const ALLOWED: unique symbol = Symbol('unasked email allowed');
export type UnaskedAllowance = { readonly [ALLOWED]: true };

/**
 * Counts one email to `to` that it did not ask for: the allowance when there was one, else null.
 * Counted by the address's hash (lower-cased), so the limits' table holds no addresses; `within`
 * the transaction that queues the email, when one is open (a write that fails spends nothing).
 */
export async function allowsUnasked(rateLimits: RateLimits, to: string, within?: EntityManager): Promise<UnaskedAllowance | null> {
  return (await rateLimits.allows('unasked_emails', sha256(to.toLowerCase()), within)) ? { [ALLOWED]: true } : null;
}

/** `allowsUnasked`, refusing the request past it: `429 rate_limited`, with when to try again. */
export async function spendUnasked(rateLimits: RateLimits, to: string, within?: EntityManager): Promise<UnaskedAllowance> {
  const allowed = await allowsUnasked(rateLimits, to, within);
  if (allowed) return allowed;
  const refused = await rateLimits.check('unasked_emails', sha256(to.toLowerCase()), within);
  const retryAfter = refused?.headers?.['retry-after'] ?? '3600';
  throw new ApiError('rate_limited', {
    message: `lfk has sent ${to} as many emails it did not ask for as it sends one address in a while. Retry in ${retryAfter} seconds.`,
    headers: { 'retry-after': retryAfter },
  });
}

/**
 * An email to queue. One whose link carries a secret (a verification, reset or invitation token)
 * names it, with the box to seal it in: the body is stored with a mark in its place, so the token
 * is never in the database in the clear, and the sender puts it back (`bodyToSend`). A `named`
 * kind carries the allowance it spent (`allowsUnasked`, `spendUnasked`): the outbox takes none without.
 */
export type OutgoingEmail = Omit<NewEmail, 'secretSealed' | 'kind'> & {
  kind: EmailKind;
  secret?: { token: string; box: SecretBox };
  unasked?: UnaskedAllowance;
};

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
  // Every path that queues mail comes here: one that forgot the recipient's allowance fails loudly.
  if (EMAIL_KINDS[email.kind] === 'named' && !email.unasked?.[ALLOWED]) throw new Error(`a ${email.kind} email queued without its recipient's allowance`);
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
