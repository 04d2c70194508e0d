import { messageOf } from '@lfk/spam-filter';
import {
  AuditEvent,
  type DeletedSubmission,
  type FormReading,
  Submission,
  SubmissionFile,
  type SubmissionFilter,
  type SubmissionFormReading,
  type SubmissionRepository,
} from '@lfk/db';
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
import { pageWithin } from '../../infrastructure/pagination.ts';
import { admitOrigin, assertSubmissionSize, findSubmissionForm, readSubmissionForm } from './rules.ts';
import type { StoredValue } from './validation.ts';
import { assertOpen } from './closing.ts';
import { queueReleased, sendSubmission } from './fan-out.ts';
import { queueSubmissionsDeleted } from '../webhooks/events.ts';
import { inBatches } from '../../infrastructure/batches.ts';
import { exportSubmissions } from './export.ts';
import { type Actor, type FormKey, formMemberProcedure, formsScopeProcedure, router, submissionProcedure } from '../../trpc.ts';
import { discardSpool, receiveUpload } from '../files/intake.ts';
import type { UploadSource } from '../files/upload-source.ts';
import { emailPreviews, previewEmails } from './email-previews.ts';
import { type SubmissionBody, takeSubmission } from './take-submission.ts';
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
  const { settings, storage } = ctx.services.files;
  const intake = { ...settings, flush: storage.takesFlushedFiles };
  const received = await receiveUpload(upload, form.schema, intake, { count: MAX_MULTIPART_VALUES, bytes: SUBMISSION_MAX_BYTES });
  try {
    assertSubmissionSize(received.values);
  } catch (error) {
    await discardSpool(received.files);
    throw error;
  }
  return { data: received.values, files: received.files };
}

/** The most text values one multipart body may carry: a form has at most 100 fields, and a honeypot and a captcha token. */
const MAX_MULTIPART_VALUES = 200;

export const inboxRouter = router({
  create: submissionProcedure
    .meta(
      rest('POST /v1/forms/:form_id/submissions', 201, 'Submit to a form: from an allowed origin (browser mode) or with a key of its workspace', {
        transport: 'submission',
        bodyLimit: SUBMISSION_MAX_BYTES,
        body: submissionValues,
        errors: [
          'form_not_found',
          'forbidden',
          'api_key_required',
          'origin_not_allowed',
          'form_closed',
          'validation_failed',
          'invalid_submission',
          'captcha_failed',
          'payload_too_large',
          'file_too_large',
          'submission_too_large',
          'file_type_not_accepted',
          'storage_unavailable',
          'scanner_unavailable',
          'rate_limited',
        ],
        idempotent: true,
      }),
    )
    .input(submissionCreateInput)
    .output(createdSubmission)
    .mutation(async ({ ctx, input }) => {
      if (!ctx.upload) assertSubmissionSize(input.data);
      const form = await findSubmissionForm(ctx.services, ctx.em, input.form_id);
      ctx.browser.formFound(form);
      const source = ctx.key ? acceptKey(form, ctx.key) : acceptBrowser(ctx, form);
      assertOpen(form, ctx.services.now());
      // A multipart body is read only now: what the form refuses never stores a byte of it.
      const body = { ...(ctx.upload ? await receiveBody(ctx, form, ctx.upload) : { data: input.data, files: [] }), draft: input.draft };
      try {
        return await takeSubmission(ctx, form, source, input.form_id, body);
      } finally {
        await discardSpool(body.files);
      }
    }),

  emailPreviews: formsScopeProcedure
    .meta(
      rest('GET /v1/forms/:form_id/email-previews', 200, 'What a submission of sample values would send now: the notification and the auto-reply, as sent', {
        errors: ['form_not_found'],
      }),
    )
    .input(formIdInput)
    .output(emailPreviews)
    .query(async ({ ctx, input }) => previewEmails(ctx.services, await readReachableForm(ctx.services.formCache, ctx.em, ctx.scope, input.form_id))),

  get: formMemberProcedure
    .meta(
      rest('GET /v1/forms/:form_id/submissions/:submission_id', 200, "One submission of a form, all of its values (members' sessions only)", {
        errors: ['submission_not_found'],
      }),
    )
    .input(submissionGetInput)
    .output(submission)
    .query(async ({ ctx, input }) => {
      // An id of the wrong shape, or of another form's submission, names nothing here.
      const found = await ctx.em.getRepository(Submission).findInForm(ctx.form.id, input.submission_id);
      if (!found) throw new ApiError('submission_not_found');
      return submissionWithFiles(ctx.em, found);
    }),

  list: formMemberProcedure
    .meta(rest('GET /v1/forms/:form_id/submissions', 200, "A form's submissions, newest first, filtered by status, time and text (members' sessions only)"))
    .input(submissionListInput)
    .output(listOf(submission))
    .query(async ({ ctx, input }) => {
      const filter = filterOf(input);
      const submissions = ctx.em.getRepository(Submission);
      const page = await pageWithin(
        'sub',
        input,
        (before, bounds) => submissions.newestFirstMatching(ctx.form.id, filter, before, bounds),
        (row) => row,
      );
      const files = await ctx.em.getRepository(SubmissionFile).ofSubmissions(page.data.map((row) => row.id));
      return { data: page.data.map((row) => submissionToWire(row, files.get(row.id))), next_cursor: page.next_cursor };
    }),

  delete: formMemberProcedure
    .meta(
      rest(
        'DELETE /v1/forms/:form_id/submissions/:submission_id',
        204,
        "Delete a submission, with its email and webhook deliveries (members' sessions only); endpoints subscribed to `submission.deleted` are told",
        { errors: ['submission_not_found'] },
      ),
    )
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

  deleteMany: formMemberProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/submissions/delete',
        200,
        "Delete several submissions: up to 100 by id, or every one before a time (members' sessions only); endpoints subscribed to " +
          '`submission.deleted` are told of each',
      ),
    )
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
          em.getRepository(AuditEvent).record({
            workspaceId,
            action: 'submissions.deleted',
            actor: ctx.actor,
            target,
            data: { deleted, ids: ids.length, ...filesAudit(files) },
          });
          return deleted;
        });
      } else {
        // Everything before a time may be a great deal: short batches, then one audit event for them all.
        const before = new Date(input.before!);
        // Counted first: what arrived before a past time does not change while it is deleted.
        const files = await ctx.em.getRepository(SubmissionFile).totalsBefore(ctx.form.id, before);
        deleted = await inBatches(ctx.services.db, (em, limit) => deleteAndTell(em, (submissions) => submissions.deleteBatch(ctx.form.id, before, limit)));
        await ctx.em.transactional(async (em) => {
          em.getRepository(AuditEvent).record({
            workspaceId,
            action: 'submissions.deleted',
            actor: ctx.actor,
            target,
            data: { deleted, before: before.toISOString(), ...filesAudit(files) },
          });
        });
      }
      if (queued) ctx.services.wakeWebhooks();
      return { deleted };
    }),

  markSpam: formMemberProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/submissions/:submission_id/spam',
        200,
        'Mark a submission as spam: its email and webhook deliveries not yet sent are cancelled, ' +
          "and the workspace's content filter learns from it (members' sessions only)",
        { errors: ['submission_not_found'] },
      ),
    )
    .input(submissionGetInput)
    .output(submission)
    .mutation(async ({ ctx, input }) => {
      let taught: Record<string, unknown> | null = null;
      const answer = await ctx.em.transactional(async (em) => {
        const found = await lockSubmission(em, ctx.form.id, input.submission_id);
        if (found.status === 'spam') return submissionWithFiles(em, found);
        const submissions = em.getRepository(Submission);
        await submissions.setStatus(found.id, 'spam', 'marked');
        await submissions.cancelPendingSends(found.id);
        // What the member saw as spam teaches the workspace's filter (a mark over the hour's allowance only marks).
        await ctx.services.spamLearnings.teach(em, ctx.form.workspace!.id, ctx.form.schema, found.data as Record<string, unknown>, true);
        taught = found.data as Record<string, unknown>;
        auditSubmission(em, ctx.form.workspace!.id, ctx.actor, 'submission.marked_spam', ctx.form.id, found.id);
        return submissionWithFiles(em, { ...found, status: 'spam', spamReason: 'marked' });
      });
      // Once the mark is kept: rspamd is told, and waited for by nobody.
      if (taught && ctx.services.rspamd) void ctx.services.rspamd.learn(messageOf(ctx.form.schema, taught), true);
      return answer;
    }),

  markNotSpam: formMemberProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/submissions/:submission_id/not-spam',
        200,
        'Mark a submission as not spam: the email and webhook deliveries held back from it are sent now, ' +
          "endpoints subscribed to `submission.released` are told, and the workspace's content filter learns from it (members' sessions only)",
        { errors: ['submission_not_found'] },
      ),
    )
    .input(submissionGetInput)
    .output(submission)
    .mutation(async ({ ctx, input }) => {
      let fannedOut = { emailQueued: false, deliveriesQueued: false };
      let taught: Record<string, unknown> | null = null;
      const answer = await ctx.em.transactional(async (em) => {
        const found = await lockSubmission(em, ctx.form.id, input.submission_id);
        if (found.status === 'ok') return submissionWithFiles(em, found);
        const submissions = em.getRepository(Submission);
        await submissions.setStatus(found.id, 'ok', null);
        await ctx.services.spamLearnings.teach(em, ctx.form.workspace!.id, ctx.form.schema, found.data as Record<string, unknown>, false);
        taught = found.data as Record<string, unknown>;
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
      if (taught && ctx.services.rspamd) void ctx.services.rspamd.learn(messageOf(ctx.form.schema, taught), false);
      return answer;
    }),

  export: formMemberProcedure
    .meta(
      rest(
        'GET /v1/forms/:form_id/submissions/export',
        200,
        "A form's submissions as a CSV or JSON Lines file, oldest first, streamed (members' sessions only); at most `LFK_EXPORTS_PER_PERSON` at " +
          'once per person',
        { transport: 'export', errors: ['rate_limited'], sudo: true },
      ),
    )
    .input(submissionExportInput)
    // The file comes chunk by chunk as it is read; the route that serves it sends each as it comes.
    .query(({ ctx, input }) => ({
      format: input.format,
      chunks: exportSubmissions({ em: ctx.em, services: ctx.services, person: ctx.session.userId }, ctx.form, filterOf(input), input.format, {
        bom: input.bom,
      }),
    })),
});
