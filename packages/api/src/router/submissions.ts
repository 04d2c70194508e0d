import { Form, isId, newId, Submission } from '@lfk/db';
import { ApiError } from '../errors.ts';
import { submissionEmail } from '../emails/submission-email.ts';
import { listOf } from '../schemas/common.ts';
import { createdSubmission, submission, submissionCreateInput, submissionListInput } from '../schemas/submissions.ts';
import { submissionToWire } from '../serializers.ts';
import { isOriginAllowed } from '../services/forms.ts';
import { runIdempotently } from '../services/idempotency.ts';
import { enqueueEmail } from '../services/outbox.ts';
import { pageNewestFirst } from '../services/pagination.ts';
import { validateSubmission } from '../services/submission-validation.ts';
import { formMemberProcedure, router, submissionProcedure } from '../trpc.ts';

export const submissionsRouter = router({
  create: submissionProcedure
    .input(submissionCreateInput)
    .output(createdSubmission)
    .mutation(async ({ ctx, input }) => {
      const found = isId('form', input.form_id) ? await ctx.em.findOne(Form, { id: input.form_id }) : null;
      if (!found) throw new ApiError('form_not_found');
      let source: 'browser' | 'api_key';
      if (ctx.key) {
        // A server-side call: the key must be of the form's workspace. Keys never see unclaimed forms.
        if (!found.workspace) throw new ApiError('form_not_found');
        if (found.workspace.id !== ctx.key.workspaceId) throw new ApiError('forbidden');
        source = 'api_key';
      } else {
        if (found.submissionMode === 'api_key') throw new ApiError('api_key_required');
        if (!isOriginAllowed(found, ctx.origin)) throw new ApiError('origin_not_allowed');
        ctx.services.rateLimits.consume('browser_submissions', found.id);
        source = 'browser';
      }
      const validated = validateSubmission(found.schema, input.data);
      if (!validated.ok) throw new ApiError('validation_failed', { details: validated.details });
      const notify = found.notifyEmailVerified ? found.notifyEmail : null;
      const created = await runIdempotently(ctx, { operation: 'submissions.create', target: found.id }, input, async (em) => {
        const record = em.create(Submission, {
          id: newId('sub'),
          form: found.id,
          data: validated.values,
          source,
          apiKeyId: ctx.key?.keyId ?? null,
        });
        await em.flush();
        if (notify) {
          enqueueEmail(
            em,
            submissionEmail({
              to: notify,
              formName: found.name,
              fields: found.schema,
              values: validated.values,
              submissionId: record.id,
              receivedAt: record.createdAt,
            }),
          );
          await em.flush();
        }
        const wire = { id: record.id, form_id: found.id, created_at: record.createdAt.toISOString() };
        return { response: wire, replay: wire };
      });
      if (notify) ctx.services.wakeMailer();
      return created;
    }),

  list: formMemberProcedure
    .input(submissionListInput)
    .output(listOf(submission))
    .query(({ ctx, input }) => pageNewestFirst(ctx.em, Submission, 'sub', { form: ctx.form.id }, input, submissionToWire)),
});
