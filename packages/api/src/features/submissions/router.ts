import { type FormReading, Submission } from '@lfk/db';
import type { Context } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { submissionEmail } from './notification-email.ts';
import { rest } from '../../procedure-meta.ts';
import { listOf } from '../../common-schemas.ts';
import {
  createdSubmission,
  SUBMISSION_MAX_BYTES,
  submission,
  submissionCreateInput,
  submissionGetInput,
  submissionListInput,
  submissionValues,
} from './schemas.ts';
import { submissionToWire } from './serializers.ts';
import { runIdempotently } from '../../infrastructure/idempotency.ts';
import { insertEmail } from '../../infrastructure/outbox.ts';
import { pageNewestFirst } from '../../infrastructure/pagination.ts';
import {
  assertSubmissionSize,
  browserSubmitter,
  findSubmissionForm,
  isOriginAllowed,
  redirectLocation,
} from './rules.ts';
import { validateSubmission } from './validation.ts';
import { queueSubmissionCreated } from '../webhooks/events.ts';
import { type FormKey, formMemberProcedure, router, submissionProcedure } from '../../trpc.ts';

/** A server-side call: the key must be of the form's workspace. Keys never see unclaimed forms. */
function acceptKey(form: FormReading, key: FormKey): 'api_key' {
  if (!form.workspace) throw new ApiError('form_not_found');
  if (form.workspace.id !== key.workspaceId) throw new ApiError('forbidden');
  return 'api_key';
}

/** A browser: the form must take browser submissions from this origin, which may then read the answer. */
function acceptBrowser(ctx: Context, form: FormReading): 'browser' {
  if (form.submissionMode === 'api_key') throw new ApiError('api_key_required');
  const origin = ctx.origin;
  if (origin === undefined || !isOriginAllowed(form, origin)) throw new ApiError('origin_not_allowed');
  // A request with an Authorization header is a server's, and servers get no CORS grant.
  if (ctx.auth.via !== 'bearer') ctx.browser.allowOrigin(origin);
  ctx.browser.fieldLabels(Object.fromEntries(form.schema.flatMap((field) => (field.label ? [[field.name, field.label]] : []))));
  return 'browser';
}

export const submissionsRouter = router({
  create: submissionProcedure.meta(rest('POST /v1/forms/:form_id/submissions', 201,
      'Submit to a form: from an allowed origin (browser mode) or with a key of its workspace',
      {
        transport: 'submission',
        bodyLimit: SUBMISSION_MAX_BYTES,
        body: submissionValues,
        errors: ['form_not_found', 'forbidden', 'api_key_required', 'origin_not_allowed', 'validation_failed', 'payload_too_large', 'rate_limited'],
        idempotent: true,
      }))
    .input(submissionCreateInput)
    .output(createdSubmission)
    .mutation(async ({ ctx, input }) => {
      assertSubmissionSize(input.data);
      const form = await findSubmissionForm(ctx.em, input.form_id);
      const source = ctx.key ? acceptKey(form, ctx.key) : acceptBrowser(ctx, form);
      const validated = validateSubmission(form.schema, input.data);
      if (!validated.ok) throw new ApiError('validation_failed', { details: validated.details });
      // Counted after the form's own rules (mode, origin, values), so what they refuse spends none
      // of the address's allowance; a browser's retry with the same Idempotency-Key counts again.
      if (source === 'browser') await ctx.services.rateLimits.consume('browser_submissions', browserSubmitter(form, ctx.ip));
      const notify = form.notifyEmailVerified ? form.notifyEmail : null;
      let deliveriesQueued = false;
      const created = await runIdempotently(ctx, { operation: 'submissions.create', target: form.id }, input, async (em) => {
        // Written by plain statements in the request's transaction: the submission, then its
        // notification and its webhook deliveries, which exist if and only if it does.
        const record = await em.getRepository(Submission).writeNow({
          formId: form.id,
          data: validated.values,
          source,
          apiKeyId: ctx.key?.keyId ?? null,
        });
        if (notify) {
          await insertEmail(
            em,
            submissionEmail({
              to: notify,
              formName: form.name,
              fields: form.schema,
              values: validated.values,
              submissionId: record.id,
              receivedAt: record.createdAt,
            }),
          );
        }
        if (form.hasWebhooks) {
          deliveriesQueued = await queueSubmissionCreated(em, {
            form: { id: form.id, name: form.name },
            submission: { id: record.id, createdAt: record.createdAt, source, values: validated.values },
          });
        }
        const wire = { id: record.id, form_id: form.id, created_at: record.createdAt.toISOString() };
        return { response: wire, replay: wire };
      });
      if (notify) ctx.services.wakeMailer();
      if (deliveriesQueued) ctx.services.wakeWebhooks();
      const location = redirectLocation(form.redirectUrl ?? null);
      if (location) ctx.browser.redirectTo(location);
      return created;
    }),

  get: formMemberProcedure.meta(rest('GET /v1/forms/:form_id/submissions/:submission_id', 200,
      "One submission of a form, all of its values (members' sessions only)", { errors: ['submission_not_found'] }))
    .input(submissionGetInput)
    .output(submission)
    .query(async ({ ctx, input }) => {
      // An id of the wrong shape, or of another form's submission, names nothing here.
      const found = await ctx.em.getRepository(Submission).findInForm(ctx.form.id, input.submission_id);
      if (!found) throw new ApiError('submission_not_found');
      return submissionToWire(found);
    }),

  list: formMemberProcedure.meta(rest('GET /v1/forms/:form_id/submissions', 200,
      "A form's submissions, newest first (members' sessions only)"))
    .input(submissionListInput)
    .output(listOf(submission))
    .query(({ ctx, input }) => pageNewestFirst(ctx.em.getRepository(Submission), 'sub', { form: ctx.form.id }, input, submissionToWire)),
});
