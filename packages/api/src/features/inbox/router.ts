import { AuditEvent, type DeletedSubmission, type FormReading, Submission, SubmissionFile, type SubmissionFilter, type SubmissionFormReading, type SubmissionRepository } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { listOf } from '../../common-schemas.ts';
import {
  createdSubmission,
  SUBMISSION_MAX_BYTES,
  submission,
  submissionCreateInput,
  submissionExportInput,
  submissionGetInput,
  submissionListInput,
  submissionsDeleted,
  submissionsDeleteInput,
} from './schemas.ts';
import { submissionValues } from '../../common-schemas.ts';
import { submissionToWire, submissionWithFiles } from './serializers.ts';
import { runIdempotently, storedReplay } from '../../infrastructure/idempotency.ts';
import { pageWithin } from '../../infrastructure/pagination.ts';
import {
  admitOrigin,
  assertSubmissionSize,
  browserSubmitter,
  findSubmissionForm,
  readSubmissionForm,
  redirectLocation,
} from './rules.ts';
import { type StoredValue, validateSubmission } from './validation.ts';
import { assertOpen, assertUnderCap } from './closing.ts';
import { judge, separateSpamFields } from './spam.ts';
import { deliversTo, notificationsOf, queueDeliveries, queueReleased, sendSubmission } from './fan-out.ts';
import { queueSubmissionsDeleted } from '../webhooks/events.ts';
import { storedEmail } from '../../infrastructure/outbox.ts';
import { inBatches } from '../../infrastructure/batches.ts';
import { exportSubmissions } from './export.ts';
import { type Actor, type FormKey, formMemberProcedure, formsScopeProcedure, router, submissionProcedure } from '../../trpc.ts';
import { discardSpool, receiveUpload, type SpooledFile } from '../files/intake.ts';
import type { UploadSource } from '../files/upload-source.ts';
import { dropUploads, keepUploads, type StoredUpload, storeUploads } from '../files/storing.ts';
import { autoReplyOf } from '../auto-replies/sending.ts';
import { emailPreviews, previewEmails } from './email-previews.ts';
import { readReachableForm } from '../forms/rules.ts';
import { formIdInput } from '../forms/schemas.ts';

/** A server-side call: the key must be of the form's workspace. Keys never see unclaimed forms. */
function acceptKey(form: FormReading, key: FormKey): 'api_key' {
  if (!form.workspace) throw new ApiError('form_not_found');
  if (form.workspace.id !== key.workspaceId) throw new ApiError('forbidden');
  return 'api_key';
}

/** A browser: the form must take browser submissions from this origin, which may then read the answer. */
function acceptBrowser(ctx: Context, form: FormReading): 'browser' {
  if (form.submissionMode === 'api_key') throw new ApiError('api_key_required');
  const origin = admitOrigin(ctx.services, form, ctx.origin);
  // A request with an Authorization header is a server's, and servers get no CORS grant.
  if (ctx.auth.via !== 'bearer') ctx.browser.allowOrigin(origin);
  return 'browser';
}

/** A list's or an export's filters, as the repository reads them. */
const filterOf = (input: { status: SubmissionFilter['status']; since?: string; until?: string; q?: string }): SubmissionFilter => ({
  status: input.status,
  ...(input.since ? { since: new Date(input.since) } : {}),
  ...(input.until ? { until: new Date(input.until) } : {}),
  ...(input.q ? { q: input.q } : {}),
});

/** The submission, locked for a change of status and read under the lock; another form's, or none, is "not found". */
async function lockSubmission(em: EntityManager, formId: string, submissionId: string) {
  const found = await em.getRepository(Submission).lockInForm(formId, submissionId);
  if (!found) throw new ApiError('submission_not_found');
  return found;
}

function auditSubmission(
  em: EntityManager,
  workspaceId: string,
  actor: Actor,
  action: 'submission.deleted' | 'submission.marked_spam' | 'submission.marked_not_spam',
  formId: string,
  submissionId: string,
  extra: Record<string, unknown> = {},
) {
  em.getRepository(AuditEvent).record({ workspaceId, action, actor, target: { type: 'submission', id: submissionId }, data: { form_id: formId, ...extra } });
}

/** What an audit event says of the files a deletion takes: their count and bytes, when there are any. */
const filesAudit = ({ files, bytes }: { files: number; bytes: number }) => (files > 0 ? { files, file_bytes: bytes } : {});

/** A multipart body, received into spool files under the form's file rules; its values held to the JSON body's limits. */
async function receiveBody(ctx: Context, form: SubmissionFormReading, upload: UploadSource): Promise<SubmissionBody> {
  const received = await receiveUpload(upload, form.schema, ctx.services.files.settings, { count: MAX_MULTIPART_VALUES, bytes: SUBMISSION_MAX_BYTES });
  try {
    assertSubmissionSize(received.values);
  } catch (error) {
    await discardSpool(received.files);
    throw error;
  }
  return { data: received.values, files: received.files };
}

/** A submission's values, and the files its body carried (none but from a multipart body). */
interface SubmissionBody {
  data: Record<string, unknown>;
  files: SpooledFile[];
}

/** The most text values one multipart body may carry: a form has at most 100 fields, and a honeypot and a captcha token. */
const MAX_MULTIPART_VALUES = 200;

/**
 * Judges and keeps a submission the form has admitted: its values and files against the schema,
 * the browser allowance, spam, then its files into storage and, in one transaction, the submission,
 * its files' rows and what it sends. Files stored but not kept are deleted (the sweep is the backstop).
 */
async function takeSubmission(ctx: Context & { key: FormKey | null }, form: SubmissionFormReading, source: 'api_key' | 'browser', formId: string, body: SubmissionBody) {
  const sent = separateSpamFields(form, body.data);
  const fileCounts = new Map<string, number>();
  for (const file of body.files) fileCounts.set(file.field, (fileCounts.get(file.field) ?? 0) + 1);
  const validated = validateSubmission(form, sent.values, fileCounts);
  if (!validated.ok) throw new ApiError(validated.aboutFiles ? 'invalid_submission' : 'validation_failed', { details: validated.details });
  // Counted after the form's own rules (mode, origin, values), so what they refuse spends none
  // of the address's allowance; a browser's retry with the same Idempotency-Key counts again.
  if (source === 'browser') await ctx.services.rateLimits.consume('browser_submissions', browserSubmitter(form, ctx.ip));
  const write = { operation: 'submissions.create', target: form.id };
  // The request as an Idempotency-Key remembers it: its values, and its files by their hashes.
  const request = body.files.length === 0 ? { form_id: formId, data: body.data } : { form_id: formId, data: body.data, files: body.files.map((f) => [f.field, f.sha256]) };
  // A captcha token is good once, and files are stored once: a retry of a request that was taken
  // is answered as it was, before its token is shown to the provider again or its files stored again.
  if ((form.captchaProvider && source === 'browser') || body.files.length > 0) {
    const replayed = await storedReplay<{ id: string; form_id: string; created_at: string }>(ctx, write, request);
    if (replayed) return replayed;
  }
  // Spam is answered exactly as a real submission is: whoever sent it learns nothing.
  const verdict = await judge(ctx, form, source, sent);
  const real = verdict.status === 'ok';
  // Never for spam (a failed captcha is spam, or refused); decided before the write, which it joins.
  // A file field's placeholder names its files: the values hold none of them yet (their ids come with storing).
  const autoReply = real ? await autoReplyOf(ctx.services, form, { ...validated.values, ...fileNamesByField(body.files) }) : null;
  const stored = await storeUploads(ctx.services, body.files, ctx.services.files.log);
  let fannedOut = { emailQueued: false, deliveriesQueued: false };
  // Kept once the write that records them has committed; a replay runs no write, so records none.
  let recorded = false;
  let kept = false;
  try {
    const perform = async (em: EntityManager) => {
      // Spam too: a full form answers every post alike, so a bot cannot tell its honeypot apart.
      await assertUnderCap(em, form);
      await keepUploads(em, stored);
      const values = { ...validated.values, ...fileIdsByField(stored) };
      const sent = (record: { id: string; createdAt: Date }) => ({ ...record, source, values, files: stored.map((file) => ({ ...file, submissionId: record.id })) });
      // Written by plain statements: the submission with its notification (if it is real), its
      // files, then its webhook deliveries, which exist if and only if it does.
      const record = await em.getRepository(Submission).writeNow(
        { formId: form.id, data: values, source, apiKeyId: ctx.key?.keyId ?? null, ...verdict },
        ctx.services.now(),
        (written) => {
          const emails = real ? [...notificationsOf(form, sent(written), ctx.services), ...(autoReply ? [autoReply] : [])] : [];
          fannedOut.emailQueued = emails.length > 0;
          return emails.map(storedEmail);
        },
      );
      await em.getRepository(SubmissionFile).record(record.id, stored, record.createdAt);
      recorded = true;
      if (real) fannedOut.deliveriesQueued = await queueDeliveries(em, form, sent(record), ctx.services);
      const wire = { id: record.id, form_id: form.id, created_at: record.createdAt.toISOString() };
      return { response: wire, replay: wire };
    };
    // The submission and its notification are one statement, which commits by itself; a write of
    // more (an Idempotency-Key's record, the cap's lock, files, deliveries) is one transaction.
    const oneStatement = ctx.idempotencyKey === undefined && form.maxSubmissions == null && stored.length === 0 && !(real && deliversTo(form, []));
    const created = oneStatement ? (await perform(ctx.em)).response : await runIdempotently(ctx, write, request, async (em) => {
      fannedOut = { emailQueued: false, deliveriesQueued: false };
      return perform(em);
    });
    kept = recorded;
    if (fannedOut.emailQueued) ctx.services.wakeMailer();
    if (fannedOut.deliveriesQueued) ctx.services.wakeWebhooks();
    const location = redirectLocation(form.redirectUrl ?? null);
    if (location) ctx.browser.redirectTo(location);
    return created;
  } finally {
    // A replay answered from its record, or a write refused (the form full): none of these is kept.
    if (!kept) await dropUploads(ctx.services, stored, ctx.services.files.log);
  }
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

export const inboxRouter = router({
  create: submissionProcedure.meta(rest('POST /v1/forms/:form_id/submissions', 201,
      'Submit to a form: from an allowed origin (browser mode) or with a key of its workspace',
      {
        transport: 'submission',
        bodyLimit: SUBMISSION_MAX_BYTES,
        body: submissionValues,
        errors: ['form_not_found', 'forbidden', 'api_key_required', 'origin_not_allowed', 'form_closed', 'validation_failed', 'invalid_submission', 'captcha_failed', 'payload_too_large', 'file_too_large', 'submission_too_large', 'file_type_not_accepted', 'storage_unavailable', 'scanner_unavailable', 'rate_limited'],
        idempotent: true,
      }))
    .input(submissionCreateInput)
    .output(createdSubmission)
    .mutation(async ({ ctx, input }) => {
      if (!ctx.upload) assertSubmissionSize(input.data);
      const form = await findSubmissionForm(ctx.services, ctx.em, input.form_id);
      ctx.browser.formFound(form);
      const source = ctx.key ? acceptKey(form, ctx.key) : acceptBrowser(ctx, form);
      assertOpen(form, ctx.services.now());
      // A multipart body is read only now: what the form refuses never stores a byte of it.
      const body = ctx.upload ? await receiveBody(ctx, form, ctx.upload) : { data: input.data, files: [] };
      try {
        return await takeSubmission(ctx, form, source, input.form_id, body);
      } finally {
        await discardSpool(body.files);
      }
    }),

  emailPreviews: formsScopeProcedure.meta(rest('GET /v1/forms/:form_id/email-previews', 200,
      'What a submission of sample values would send now: the notification and the auto-reply, as sent',
      { errors: ['form_not_found'] }))
    .input(formIdInput)
    .output(emailPreviews)
    .query(async ({ ctx, input }) => previewEmails(ctx.services, await readReachableForm(ctx.services.formCache, ctx.em, ctx.scope, input.form_id))),

  get: formMemberProcedure.meta(rest('GET /v1/forms/:form_id/submissions/:submission_id', 200,
      "One submission of a form, all of its values (members' sessions only)", { errors: ['submission_not_found'] }))
    .input(submissionGetInput)
    .output(submission)
    .query(async ({ ctx, input }) => {
      // An id of the wrong shape, or of another form's submission, names nothing here.
      const found = await ctx.em.getRepository(Submission).findInForm(ctx.form.id, input.submission_id);
      if (!found) throw new ApiError('submission_not_found');
      return submissionWithFiles(ctx.em, found);
    }),

  list: formMemberProcedure.meta(rest('GET /v1/forms/:form_id/submissions', 200,
      "A form's submissions, newest first, filtered by status, time and text (members' sessions only)"))
    .input(submissionListInput)
    .output(listOf(submission))
    .query(async ({ ctx, input }) => {
      const filter = filterOf(input);
      const submissions = ctx.em.getRepository(Submission);
      const page = await pageWithin('sub', input, (before, bounds) => submissions.newestFirstMatching(ctx.form.id, filter, before, bounds), (row) => row);
      const files = await ctx.em.getRepository(SubmissionFile).ofSubmissions(page.data.map((row) => row.id));
      return { data: page.data.map((row) => submissionToWire(row, files.get(row.id))), next_cursor: page.next_cursor };
    }),

  delete: formMemberProcedure.meta(rest('DELETE /v1/forms/:form_id/submissions/:submission_id', 204,
      "Delete a submission, with its email and webhook deliveries (members' sessions only); endpoints subscribed to `submission.deleted` are told",
      { errors: ['submission_not_found'] }))
    .input(submissionGetInput)
    .mutation(async ({ ctx, input }) => {
      const queued = await ctx.em.transactional(async (em) => {
        const files = await em.getRepository(SubmissionFile).totalsOf([input.submission_id]);
        const deleted = await em.getRepository(Submission).deleteInForm(ctx.form.id, [input.submission_id]);
        if (deleted.length === 0) throw new ApiError('submission_not_found');
        auditSubmission(em, ctx.form.workspace!.id, ctx.actor, 'submission.deleted', ctx.form.id, input.submission_id, filesAudit(files));
        return queueSubmissionsDeleted(em, ctx.form, deleted, new Date());
      });
      if (queued) ctx.services.wakeWebhooks();
    }),

  deleteMany: formMemberProcedure.meta(rest('POST /v1/forms/:form_id/submissions/delete', 200,
      "Delete several submissions: up to 100 by id, or every one before a time (members' sessions only); endpoints subscribed to `submission.deleted` are told of each"))
    .input(submissionsDeleteInput)
    .output(submissionsDeleted)
    .mutation(async ({ ctx, input }) => {
      const workspaceId = ctx.form.workspace!.id;
      const target = { type: 'form', id: ctx.form.id };
      let queued = false;
      const deleteAndTell = async (em: EntityManager, remove: (submissions: SubmissionRepository) => Promise<DeletedSubmission[]>) => {
        const deleted = await remove(em.getRepository(Submission));
        if (await queueSubmissionsDeleted(em, ctx.form, deleted, new Date())) queued = true;
        return deleted.length;
      };
      let deleted: number;
      if (input.ids) {
        const ids = input.ids;
        deleted = await ctx.em.transactional(async (em) => {
          const files = await em.getRepository(SubmissionFile).totalsInForm(ctx.form.id, ids);
          const deleted = await deleteAndTell(em, (submissions) => submissions.deleteInForm(ctx.form.id, ids));
          em.getRepository(AuditEvent).record({ workspaceId, action: 'submissions.deleted', actor: ctx.actor, target, data: { deleted, ids: ids.length, ...filesAudit(files) } });
          return deleted;
        });
      } else {
        // Everything before a time may be a great deal: short batches, then one audit event for them all.
        const before = new Date(input.before!);
        // Counted first: what arrived before a past time does not change while it is deleted.
        const files = await ctx.em.getRepository(SubmissionFile).totalsBefore(ctx.form.id, before);
        deleted = await inBatches(ctx.services.db, (em, limit) => deleteAndTell(em, (submissions) => submissions.deleteBatch(ctx.form.id, before, limit)));
        await ctx.em.transactional(async (em) => {
          em.getRepository(AuditEvent).record({ workspaceId, action: 'submissions.deleted', actor: ctx.actor, target, data: { deleted, before: before.toISOString(), ...filesAudit(files) } });
        });
      }
      if (queued) ctx.services.wakeWebhooks();
      return { deleted };
    }),

  markSpam: formMemberProcedure.meta(rest('POST /v1/forms/:form_id/submissions/:submission_id/spam', 200,
      "Mark a submission as spam: its email and webhook deliveries not yet sent are cancelled (members' sessions only)",
      { errors: ['submission_not_found'] }))
    .input(submissionGetInput)
    .output(submission)
    .mutation(async ({ ctx, input }) =>
      ctx.em.transactional(async (em) => {
        const found = await lockSubmission(em, ctx.form.id, input.submission_id);
        if (found.status === 'spam') return submissionWithFiles(em, found);
        const submissions = em.getRepository(Submission);
        await submissions.setStatus(found.id, 'spam', 'marked');
        await submissions.cancelPendingSends(found.id);
        auditSubmission(em, ctx.form.workspace!.id, ctx.actor, 'submission.marked_spam', ctx.form.id, found.id);
        return submissionWithFiles(em, { ...found, status: 'spam', spamReason: 'marked' });
      }),
    ),

  markNotSpam: formMemberProcedure.meta(rest('POST /v1/forms/:form_id/submissions/:submission_id/not-spam', 200,
      "Mark a submission as not spam: the email and webhook deliveries held back from it are sent now, " +
        "and endpoints subscribed to `submission.released` are told (members' sessions only)",
      { errors: ['submission_not_found'] }))
    .input(submissionGetInput)
    .output(submission)
    .mutation(async ({ ctx, input }) => {
      let fannedOut = { emailQueued: false, deliveriesQueued: false };
      const answer = await ctx.em.transactional(async (em) => {
        const found = await lockSubmission(em, ctx.form.id, input.submission_id);
        if (found.status === 'ok') return submissionWithFiles(em, found);
        const submissions = em.getRepository(Submission);
        await submissions.setStatus(found.id, 'ok', null);
        // What spam held back: all of it when caught on arrival; what marking it cancelled when a
        // member marked it. What it sent before, it does not send again.
        const form = await readSubmissionForm(em, ctx.form.id);
        const values = found.data as Record<string, StoredValue>;
        const files = (await em.getRepository(SubmissionFile).ofSubmissions([found.id])).get(found.id) ?? [];
        const released = { id: found.id, createdAt: found.createdAt, source: found.source, values, files };
        fannedOut = await sendSubmission(em, form, released, ctx.services, await submissions.sendsOf(found.id));
        if (await queueReleased(em, form, released, ctx.services)) fannedOut.deliveriesQueued = true;
        auditSubmission(em, ctx.form.workspace!.id, ctx.actor, 'submission.marked_not_spam', ctx.form.id, found.id);
        return submissionToWire({ ...found, status: 'ok', spamReason: null }, files);
      });
      if (fannedOut.emailQueued) ctx.services.wakeMailer();
      if (fannedOut.deliveriesQueued) ctx.services.wakeWebhooks();
      return answer;
    }),

  export: formMemberProcedure.meta(rest('GET /v1/forms/:form_id/submissions/export', 200,
      "A form's submissions as a CSV or JSON Lines file, oldest first, streamed (members' sessions only); at most `LFK_EXPORTS_PER_PERSON` at once per person",
      { transport: 'export', errors: ['rate_limited'], sudo: true }))
    .input(submissionExportInput)
    // The file comes chunk by chunk as it is read; the route that serves it sends each as it comes.
    .query(({ ctx, input }) => ({
      format: input.format,
      chunks: exportSubmissions({ em: ctx.em, services: ctx.services, person: ctx.session.userId }, ctx.form, filterOf(input), input.format, { bom: input.bom }),
    })),
});
