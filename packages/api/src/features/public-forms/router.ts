import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { publicProcedure, router } from '../../trpc.ts';
import { formIdInput } from '../forms/schemas.ts';
import { findSubmissionForm, originGranted } from '../inbox/rules.ts';
import { publicForm } from './schemas.ts';
import { publicFormOf } from './serializers.ts';

export const publicFormsRouter = router({
  get: publicProcedure
    .meta(
      rest(
        'GET /v1/forms/:form_id/public',
        200,
        'A form as the page it lives on sees it, for anyone: its fields and their limits, whether it is open, ' +
          "and the spam settings a page needs. Readable by pages on the form's allowed origins (CORS); cacheable (`ETag`).",
        { errors: ['form_not_found'], transport: 'public_form' },
      ),
    )
    .input(formIdInput)
    .output(publicForm)
    .query(async ({ ctx, input }) => {
      const form = await findSubmissionForm(ctx.services, ctx.em, input.form_id);
      // Only a form browsers post to has a page: one that takes keys alone keeps its fields to its owners.
      if (form.submissionMode !== 'browser') throw new ApiError('form_not_found');
      if (originGranted(ctx.services, form, ctx.origin)) ctx.browser.allowOrigin(ctx.origin);
      return publicFormOf(form, ctx.services.files.settings, ctx.services.now());
    }),
});
