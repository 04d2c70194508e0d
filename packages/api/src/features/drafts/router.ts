import { Draft, newId } from '@lfk/db';
import { listOf } from '../../common-schemas.ts';
import { isWellFormedResumeToken, generateResumeToken } from '../../credentials/tokens.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { ApiError, invalidField } from '../../errors.ts';
import { pageWithin } from '../../infrastructure/pagination.ts';
import { iso } from '../../infrastructure/wire.ts';
import { rest } from '../../procedure-meta.ts';
import type { Context } from '../../context.ts';
import { formMemberProcedure, publicProcedure, router } from '../../trpc.ts';
import { admitOrigin, browserSubmitter, findSubmissionForm } from '../inbox/rules.ts';
import { assertKeepsDrafts, draftLifetimeMs, draftValuesOf } from './rules.ts';
import { sendDraftLink } from './draft-link-sending.ts';
import {
  draft,
  draftEmailInput,
  draftLinkSent,
  draftListInput,
  draftSaveInput,
  draftStartInput,
  draftsDeleted,
  draftsDeleteInput,
  draftTokenInput,
  startedDraft,
} from './schemas.ts';

const wire = (d: { id: string; data: Record<string, string | boolean>; createdAt: Date; updatedAt: Date; expiresAt: Date }) => ({
  id: d.id,
  data: d.data,
  created_at: iso(d.createdAt),
  updated_at: iso(d.updatedAt),
  expires_at: iso(d.expiresAt),
});

/**
 * A page's draft requests, as a browser submission is judged: the form, the page's origin (which
 * may then read the answer), and then whether the form keeps drafts. A request with a key is a server's, and
 * a server has no page: it has no origin to be granted.
 */
async function pageForm(ctx: Context, formId: string) {
  const form = await findSubmissionForm(ctx.services, ctx.em, formId);
  // The origin first: a page the form allows may read why it keeps no draft.
  ctx.browser.allowOrigin(admitOrigin(ctx.services, form, ctx.origin));
  assertKeepsDrafts(form);
  return form;
}

/** A resume token of the wrong shape, another form's, expired or forged: one answer, `404 draft_not_found`. */
const tokenHashOf = (token: string) => {
  if (!isWellFormedResumeToken(token)) throw new ApiError('draft_not_found');
  return sha256(token);
};

/** The form's live draft with this resume token, or `404 draft_not_found`. */
async function liveDraft(ctx: Context, formId: string, token: string) {
  const found = await ctx.em.getRepository(Draft).findLive(formId, tokenHashOf(token), ctx.services.now());
  if (!found) throw new ApiError('draft_not_found');
  return found;
}

export const draftsRouter = router({
  start: publicProcedure
    .meta(
      rest('POST /v1/forms/:form_id/drafts', 201, "Keep what a visitor has typed so far, from the form's page; the answer's resume token is shown this once", {
        errors: ['form_not_found', 'drafts_disabled', 'origin_not_allowed', 'validation_failed', 'payload_too_large', 'rate_limited'],
        transport: 'browser',
      }),
    )
    .input(draftStartInput)
    .output(startedDraft)
    .mutation(async ({ ctx, input }) => {
      const form = await pageForm(ctx, input.form_id);
      const data = draftValuesOf(form, input.data);
      await ctx.services.rateLimits.consume('draft_saves', browserSubmitter(form, ctx.ip));
      const { token, hash } = generateResumeToken();
      const now = ctx.services.now();
      const started = await ctx.em.getRepository(Draft).start({
        id: newId('drf'),
        formId: form.id,
        tokenHash: hash,
        data,
        origin: ctx.origin!,
        at: now,
        expiresAt: new Date(now.getTime() + draftLifetimeMs(form)),
      });
      return { ...wire(started), resume_token: token };
    }),

  get: publicProcedure
    .meta(
      rest('GET /v1/forms/:form_id/drafts/:resume_token', 200, "A visitor's draft, for the form's page to fill the form in again", {
        errors: ['form_not_found', 'drafts_disabled', 'origin_not_allowed', 'draft_not_found'],
        transport: 'browser',
      }),
    )
    .input(draftTokenInput)
    .output(draft)
    .query(async ({ ctx, input }) => {
      const form = await pageForm(ctx, input.form_id);
      return wire(await liveDraft(ctx, form.id, input.resume_token));
    }),

  save: publicProcedure
    .meta(
      rest('PUT /v1/forms/:form_id/drafts/:resume_token', 200, "Replace a draft's values with what the visitor has typed now; its lifetime starts again", {
        errors: ['form_not_found', 'drafts_disabled', 'origin_not_allowed', 'draft_not_found', 'validation_failed', 'payload_too_large', 'rate_limited'],
        transport: 'browser',
      }),
    )
    .input(draftSaveInput)
    .output(draft)
    .mutation(async ({ ctx, input }) => {
      const form = await pageForm(ctx, input.form_id);
      const hash = tokenHashOf(input.resume_token);
      const data = draftValuesOf(form, input.data);
      await ctx.services.rateLimits.consume('draft_saves', browserSubmitter(form, ctx.ip));
      const now = ctx.services.now();
      const saved = await ctx.em.getRepository(Draft).save(form.id, hash, data, now, new Date(now.getTime() + draftLifetimeMs(form)));
      if (!saved) throw new ApiError('draft_not_found');
      return wire(saved);
    }),

  email: publicProcedure
    .meta(
      rest(
        'POST /v1/forms/:form_id/drafts/:resume_token/email',
        202,
        "Email the visitor a link that opens the form's page with their draft, to finish later (a form whose drafts offer it)",
        {
          errors: ['form_not_found', 'drafts_disabled', 'origin_not_allowed', 'draft_not_found', 'invalid_request', 'rate_limited'],
          transport: 'browser',
        },
      ),
    )
    .input(draftEmailInput)
    .output(draftLinkSent)
    .mutation(async ({ ctx, input }) => {
      const form = await pageForm(ctx, input.form_id);
      if (!form.drafts?.email_link) throw new ApiError('drafts_disabled', { message: 'This form does not email links to its drafts.' });
      // The link opens the page that asked for it, nowhere else.
      if (new URL(input.page_url).origin !== ctx.origin) {
        throw invalidField('page_url', "Must be a page of the request's origin.");
      }
      const found = await liveDraft(ctx, form.id, input.resume_token);
      await ctx.services.rateLimits.consume('draft_saves', browserSubmitter(form, ctx.ip));
      await sendDraftLink(ctx.services, ctx.em, form, { to: input.email, pageUrl: input.page_url, token: input.resume_token, expiresAt: found.expiresAt });
      return { expires_at: iso(found.expiresAt) };
    }),

  list: formMemberProcedure
    .meta(rest('GET /v1/forms/:form_id/drafts', 200, "A form's drafts, newest first: answers visitors began and have not sent (members' sessions only)"))
    .input(draftListInput)
    .output(listOf(draft))
    .query(({ ctx, input }) =>
      pageWithin(
        'drf',
        input,
        (before, bounds) => ctx.em.getRepository(Draft).ofForm(ctx.form.id, before, bounds),
        (row) => wire({ id: row.id, data: row.data, createdAt: row.createdAt, updatedAt: row.updatedAt, expiresAt: row.expiresAt }),
      ),
    ),

  delete: formMemberProcedure
    .meta(rest('POST /v1/forms/:form_id/drafts/delete', 200, "Delete drafts by id, up to 100 (members' sessions only): their resume tokens find nothing after"))
    .input(draftsDeleteInput)
    .output(draftsDeleted)
    .mutation(async ({ ctx, input }) => ({ deleted: await ctx.em.getRepository(Draft).deleteInForm(ctx.form.id, input.ids) })),
});
