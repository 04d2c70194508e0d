import { Draft, Submission, SubmissionFile, type SubmissionFormReading } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Context } from '../../context.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { isWellFormedResumeToken } from '../../credentials/tokens.ts';
import { ApiError } from '../../errors.ts';
import { type IdempotentWrite, runIdempotently, storedReplay } from '../../infrastructure/idempotency.ts';
import { type OutgoingEmail, storedEmail } from '../../infrastructure/outbox.ts';
import type { FormKey } from '../../trpc.ts';
import { autoReplyOf } from '../auto-replies/sending.ts';
import { notifiedAddresses } from '../email-verification/notify-email.ts';
import type { SpooledFile } from '../files/intake.ts';
import { dropUploads, keepUploads, type StoredUpload, storeUploads } from '../files/storing.ts';
import { assertUnderCap } from './closing.ts';
import { deliversTo, notificationsOf, queueDeliveries, type Sent } from './fan-out.ts';
import { browserSubmitter, redirectLocation } from './rules.ts';
import { judge, type SeparatedValues, separateSpamFields, type Verdict } from './spam.ts';
import { type SubmissionValue, validateSubmission } from './validation.ts';

/** A submission's values, and the files its body carried (none but from a multipart body). */
export interface SubmissionBody {
  data: Record<string, unknown>;
  files: SpooledFile[];
  /** The resume token of the draft it completes, if any. */
  draft?: string | undefined;
}

type Caller = Context & { key: FormKey | null };
type Source = 'api_key' | 'browser';

/** What `submissions.create` answers. */
interface Created {
  id: string;
  form_id: string;
  created_at: string;
}

/** A judged submission, ready to be written: what the form admitted, the verdict, what it sends, its stored files. */
interface Judged {
  form: SubmissionFormReading;
  source: Source;
  values: Record<string, SubmissionValue>;
  verdict: Verdict;
  autoReply: OutgoingEmail | null;
  stored: readonly StoredUpload[];
  /** The resume token of the draft it completes: the draft goes with its commit. */
  draft: string | undefined;
}

/** What a write answered, and what it queued: `sent` is null when the answer is the replay of an earlier request's. */
interface Written {
  created: Created;
  sent: Sent | null;
}

/**
 * Judges and keeps a submission the form has admitted: its values and files against the schema,
 * the browser allowance, spam, then its files into storage and, in one transaction, the submission,
 * its files' rows and what it sends: one commit. Files stored but not kept are deleted (the orphan
 * sweep is the backstop).
 */
export async function takeSubmission(ctx: Caller, form: SubmissionFormReading, source: Source, formId: string, body: SubmissionBody): Promise<Created> {
  const separated = separateSpamFields(form, body.data);
  const values = admittedValues(form, separated, body.files);
  // Counted after the form's own rules (mode, origin, values), so what they refuse spends none
  // of the address's allowance; a browser's retry with the same Idempotency-Key counts again.
  if (source === 'browser') await ctx.services.rateLimits.consume('browser_submissions', browserSubmitter(form, ctx.ip));
  const write = { operation: 'submissions.create', target: form.id };
  const request = requestOf(formId, body);
  // A captcha token is good once, and files are stored once: a retry of a request that was taken
  // is answered as it was, before its token is shown to the provider again or its files stored again.
  if ((form.captchaProvider && source === 'browser') || body.files.length > 0) {
    const replayed = await storedReplay<Created>(ctx, write, request);
    if (replayed) return replayed;
  }
  // Spam is answered exactly as a real submission is: whoever sent it learns nothing.
  const verdict = await judge(ctx, form, source, separated, values);
  // Never for spam (a failed captcha is spam, or refused); decided before the write, which it joins.
  // A file field's placeholder names its files: the values hold none of them yet (their ids come with storing).
  const autoReply = verdict.status === 'ok' ? await autoReplyOf(ctx.services, form, { ...values, ...fileNamesByField(body.files) }) : null;
  const stored = await storeUploads(ctx.services, body.files, ctx.services.files.log);
  const judged = { form, source, values, verdict, autoReply, stored, draft: body.draft };
  const { created, sent } = await keepingUploads(ctx, stored, () => writeSubmission(ctx, judged, write, request));
  if (sent?.emailQueued) ctx.services.wakeMailer();
  if (sent?.deliveriesQueued) ctx.services.wakeWebhooks();
  const location = redirectLocation(form.redirectUrl ?? null);
  if (location) ctx.browser.redirectTo(location);
  return created;
}

/** The values the form's schema admits, its files counted by field; else the refusal, field by field. */
function admittedValues(form: SubmissionFormReading, separated: SeparatedValues, files: readonly SpooledFile[]): Record<string, SubmissionValue> {
  const fileCounts = new Map<string, number>();
  for (const file of files) fileCounts.set(file.field, (fileCounts.get(file.field) ?? 0) + 1);
  const validated = validateSubmission(form, separated.values, fileCounts);
  if (!validated.ok) throw new ApiError(validated.aboutFiles ? 'invalid_submission' : 'validation_failed', { details: validated.details });
  return validated.values;
}

/** The request as an Idempotency-Key remembers it: its values, and its files by their hashes. */
const requestOf = (formId: string, body: SubmissionBody) =>
  body.files.length === 0 ? { form_id: formId, data: body.data } : { form_id: formId, data: body.data, files: body.files.map((f) => [f.field, f.sha256]) };

/**
 * Runs the write, then deletes the files stored for it unless it kept them: a write refused in its
 * transaction (the form full, storing too slow) or answered from an earlier request's record keeps
 * none. Any other failure (the database gone mid-commit) may have committed: its objects are left
 * to the orphan sweep, which deletes them only if no file row names them.
 */
async function keepingUploads(ctx: Caller, stored: readonly StoredUpload[], write: () => Promise<Written>): Promise<Written> {
  const written = await write().catch(async (error: unknown) => {
    if (error instanceof ApiError) await dropUploads(ctx.services, stored, ctx.services.files.log);
    else if (stored.length > 0)
      ctx.services.files.log.warn(
        { err: error },
        "a submission's files were stored but its write failed; the orphan sweep will delete them unless it committed",
      );
    throw error;
  });
  if (written.sent === null) await dropUploads(ctx.services, stored, ctx.services.files.log);
  return written;
}

/**
 * The submission and its notification are one statement, which commits by itself; a write of
 * more (an Idempotency-Key's record, the cap's lock, files, deliveries) is one transaction, which
 * answers a repeated Idempotency-Key from its record and writes nothing.
 */
async function writeSubmission(ctx: Caller, judged: Judged, write: IdempotentWrite, request: unknown): Promise<Written> {
  const { form, verdict, stored } = judged;
  const oneStatement =
    ctx.idempotencyKey === undefined && form.maxSubmissions == null && stored.length === 0 && !(verdict.status === 'ok' && deliversTo(form, []));
  if (oneStatement) return recordSubmission(ctx, ctx.em, judged);
  const answer = await runIdempotently<Written | Created>(ctx, write, request, async (em) => {
    const written = await recordSubmission(ctx, em, judged);
    return { response: written, replay: written.created };
  });
  return 'sent' in answer ? answer : { created: answer, sent: null };
}

/**
 * Writes the submission by plain statements: the submission with its notification (if it is
 * real), its files, then its webhook deliveries, which exist if and only if it does.
 */
async function recordSubmission(ctx: Caller, em: EntityManager, judged: Judged): Promise<Written & { sent: Sent }> {
  const { form, source, verdict, autoReply, stored } = judged;
  const real = verdict.status === 'ok';
  // Spam too: a full form answers every post alike, so a bot cannot tell its honeypot apart.
  await assertUnderCap(em, form);
  const values = { ...judged.values, ...fileIdsByField(stored) };
  const asSent = (record: { id: string; createdAt: Date }) => ({
    ...record,
    source,
    values,
    files: stored.map((file) => ({ ...file, submissionId: record.id })),
  });
  const emailsOf = (written: { id: string; createdAt: Date }) =>
    real ? [...notificationsOf(form, asSent(written), ctx.services), ...(autoReply ? [autoReply] : [])] : [];
  const record = await em
    .getRepository(Submission)
    .writeNow({ formId: form.id, data: values, source, apiKeyId: ctx.key?.keyId ?? null, ...verdict }, ctx.services.now(), (written) =>
      emailsOf(written).map(storedEmail),
    );
  await em.getRepository(SubmissionFile).record(record.id, stored, record.createdAt);
  // The draft it completes is sent: gone with this commit (a token that names none changes nothing).
  if (judged.draft !== undefined && isWellFormedResumeToken(judged.draft)) await em.getRepository(Draft).remove(form.id, sha256(judged.draft));
  const deliveriesQueued = real ? await queueDeliveries(em, form, asSent(record), ctx.services) : false;
  // Last before the commit: the files' objects must still be safe from the orphan sweep.
  keepUploads(stored, ctx.services.now(), ctx.services.files.settings.uploadGraceMs);
  // What emailsOf wrote: a notification to each notified address, and the auto-reply.
  const emailQueued = real && (notifiedAddresses(form).length > 0 || autoReply !== null);
  return { created: { id: record.id, form_id: form.id, created_at: record.createdAt.toISOString() }, sent: { emailQueued, deliveriesQueued } };
}

/** Each file field's files by name, in the order they were sent: what an auto-reply's placeholder shows. */
function fileNamesByField(files: readonly SpooledFile[]): Record<string, string[]> {
  const names: Record<string, string[]> = {};
  for (const file of files) names[file.field] = [...(names[file.field] ?? []), file.name];
  return names;
}

/** A file field's value in `data`: the ids of its files, in the order they were sent. */
function fileIdsByField(stored: readonly StoredUpload[]): Record<string, string[]> {
  const ids: Record<string, string[]> = {};
  for (const file of stored) ids[file.field] = [...(ids[file.field] ?? []), file.id];
  return ids;
}
