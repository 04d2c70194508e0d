import { ApiKey, AuditEvent, Draft, Form, type IForm, isId, newId, Project, Submission, Workspace } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Context, Services } from '../../context.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { generateClaimToken, isWellFormedClaimToken } from '../../credentials/tokens.ts';
import { ApiError, invalidField } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { listOf } from '../../common-schemas.ts';
import { changeNotifyEmails } from '../email-verification/notify-email.ts';
import {
  type CreatedForm,
  createdForm,
  type FormCreateInput,
  type FormUpdateInput,
  form,
  formClaimInput,
  formCreateInput,
  formIdInput,
  formListInput,
  formListItem,
  formRetentionInput,
  formUpdateInput,
} from './schemas.ts';
import { formVerificationSent } from '../email-verification/schemas.ts';
import { formToWire } from './serializers.ts';
import { assertFileLimits, findReachableForm, formGone, readReachableForm, resolveProject } from './rules.ts';
import { runIdempotently } from '../../infrastructure/idempotency.ts';
import { pageWithin } from '../../infrastructure/pagination.ts';
import { iso } from '../../infrastructure/wire.ts';
import { inBatches } from '../../infrastructure/batches.ts';
import { applyInboxSettings, NO_INBOX_SETTINGS } from './inbox-settings.ts';
import { assertAutoReplyFits, mergedAutoReply } from '../auto-replies/template.ts';
import { assertResendAllowed, maskEmail, sendVerification, verifyNotifyEmails } from '../email-verification/sending.ts';
import {
  type Actor,
  type FormsScope,
  formsScopeOrAnonymousProcedure,
  formsScopeProcedure,
  formMemberProcedure,
  formOwnerProcedure,
  memberProcedure,
  router,
} from '../../trpc.ts';
import { auditByCaller } from '../../infrastructure/audit.ts';

/**
 * An auto-reply is mail its form's maker writes, sent from lfk's address to whatever address a
 * post names: writing one that will be sent (set, or changed while on) needs a confirmed address,
 * as handing out keys does. Turning it off or removing it does not.
 */
const WRITING_AN_AUTO_REPLY = {
  when: (raw: unknown) => {
    const autoReply = (raw as { auto_reply?: unknown } | null)?.auto_reply;
    return typeof autoReply === 'object' && autoReply !== null && (autoReply as { enabled?: unknown }).enabled !== false;
  },
};

/** The account an auto-reply set by `actor` counts against (`auto_reply_accounts`): the person, or the key's maker. */
async function autoReplySetter(em: EntityManager, actor: Actor): Promise<string | null> {
  if (actor.type === 'user') return actor.id;
  if (actor.type !== 'api_key') return null;
  const key = await em.getRepository(ApiKey).findOne({ id: actor.id }, { fields: ['createdBy'] });
  return key?.createdBy?.id ?? null;
}

const UPDATABLE: (keyof Omit<FormUpdateInput, 'form_id'>)[] = [
  'name',
  'schema',
  'unknown_fields',
  'submission_mode',
  'allowed_origins',
  'project_id',
  'redirect_url',
  'error_redirect_url',
  'notify_email',
  'notify_emails',
  'auto_reply',
  'spam',
  'closed',
  'closes_at',
  'max_submissions',
  'closed_message',
];

/**
 * The addresses a create or update asks for, from `notify_emails` or `notify_email` (one, or none
 * for null); undefined when it names neither.
 */
function requestedNotifyEmails(input: Pick<FormUpdateInput, 'notify_email' | 'notify_emails'>): string[] | undefined {
  if (input.notify_emails !== undefined && input.notify_email !== undefined) {
    throw invalidField('notify_emails', 'Give notify_emails or notify_email, not both.');
  }
  if (input.notify_emails !== undefined) return input.notify_emails;
  if (input.notify_email !== undefined) return input.notify_email === null ? [] : [input.notify_email];
  return undefined;
}

/** Without credentials: an unclaimed form, a claim token shown once, a verification email to each address. */
async function createUnclaimed(ctx: Context, input: FormCreateInput) {
  // A workspace or project named without credentials: the caller meant to sign in.
  if (input.workspace_id !== undefined || input.project_id !== undefined) throw new ApiError('unauthenticated');
  const notifyEmails = requestedNotifyEmails(input) ?? [];
  if (notifyEmails.length === 0) {
    throw invalidField('notify_email', 'Required for a form made without credentials: submissions are sent there.');
  }
  if (input.submission_mode === 'api_key') {
    throw invalidField('submission_mode', 'api_key mode needs a claimed form: create it with a key or a session.');
  }
  if (input.auto_reply) {
    throw invalidField('auto_reply', 'An auto-reply needs a claimed form (its workspace is named in each reply): create it with a key or a session.');
  }
  assertFileLimits(input.schema, ctx.services.files.settings.maxFileSize);
  // Counted once the form will be made: a refused attempt spends no allowance.
  await ctx.services.rateLimits.consume('anonymous_forms', ctx.ip);
  const created = await runIdempotently(ctx, { operation: 'forms.create', target: null }, input, async (em) => {
    const claim = generateClaimToken();
    const record = em.create(Form, {
      id: newId('form'),
      workspace: null,
      project: null,
      name: input.name,
      state: 'unclaimed',
      schema: input.schema,
      unknownFields: input.unknown_fields,
      submissionMode: 'browser',
      allowedOrigins: input.allowed_origins,
      notifyEmails: notifyEmails.map((email) => ({ email, verified: false })),
      notifyFallback: null,
      redirectUrl: input.redirect_url ?? null,
      errorRedirectUrl: input.error_redirect_url ?? null,
      claimTokenHash: claim.hash,
      verificationSentAt: null,
      ...NO_INBOX_SETTINGS,
    });
    applyInboxSettings(record, input, ctx.services.secretBox, ctx.services.now());
    for (const to of notifyEmails) await sendVerification(em, ctx.services, record, to);
    await em.flush();
    const wire = formToWire(record);
    const response: CreatedForm = { ...wire, claim_token: claim.token };
    return { response, replay: { ...wire, claim_token: null } };
  });
  ctx.services.wakeMailer();
  return created;
}

/** With a key (its workspace) or a member's session (`workspace_id`): born claimed. */
async function createClaimed(ctx: Context, scope: FormsScope, actor: Actor, input: FormCreateInput) {
  const workspaceId = input.workspace_id ?? scope.keyWorkspaceId;
  if (workspaceId === null) throw invalidField('workspace_id', 'Required when signed in with a session.');
  if (!isId('ws', workspaceId) || !(await scope.canReach(workspaceId))) throw new ApiError('workspace_not_found');
  assertFileLimits(input.schema, ctx.services.files.settings.maxFileSize);
  const project = await resolveProject(ctx.em, workspaceId, input.project_id);
  const notifyEmails = requestedNotifyEmails(input) ?? [];
  const created = await runIdempotently(ctx, { operation: 'forms.create', target: workspaceId }, input, async (em) => {
    const record = em.create(Form, {
      id: newId('form'),
      workspace: workspaceId,
      project: project.id,
      name: input.name,
      state: 'claimed',
      schema: input.schema,
      unknownFields: input.unknown_fields,
      submissionMode: input.submission_mode,
      allowedOrigins: input.allowed_origins,
      notifyEmails: notifyEmails.map((email) => ({ email, verified: false })),
      notifyFallback: null,
      autoReply: mergedAutoReply(null, input.auto_reply, input.auto_reply ? await autoReplySetter(em, actor) : null),
      redirectUrl: input.redirect_url ?? null,
      errorRedirectUrl: input.error_redirect_url ?? null,
      claimTokenHash: null,
      verificationSentAt: null,
      ...NO_INBOX_SETTINGS,
    });
    applyInboxSettings(record, input, ctx.services.secretBox, ctx.services.now());
    assertAutoReplyFits(record.autoReply ?? null, record.schema);
    await verifyNotifyEmails(em, ctx.services, record, notifyEmails);
    em.getRepository(AuditEvent).record({
      workspaceId,
      action: 'form.created',
      actor,
      target: { type: 'form', id: record.id },
      data: { name: record.name },
    });
    await em.flush();
    const wire = formToWire(record);
    return { response: wire, replay: wire };
  });
  // Waking the sender when nothing was queued (an address a member verified) costs one look.
  if (notifyEmails.length > 0) ctx.services.wakeMailer();
  return created;
}

/**
 * Applies a PATCH; a new notification address is verified (the addresses notified until now keep
 * their notifications meanwhile: changeNotifyEmails). Answers whether an email was queued, and
 * whether the form was closed or reopened by hand.
 */
async function applyUpdate(em: EntityManager, services: Services, found: IForm, input: FormUpdateInput, actor: Actor) {
  if (input.name !== undefined) found.name = input.name;
  assertFileLimits(input.schema, services.files.settings.maxFileSize);
  if (input.schema !== undefined) found.schema = input.schema;
  if (input.unknown_fields !== undefined) found.unknownFields = input.unknown_fields;
  if (input.submission_mode !== undefined) found.submissionMode = input.submission_mode;
  if (input.allowed_origins !== undefined) found.allowedOrigins = input.allowed_origins;
  if (input.redirect_url !== undefined) found.redirectUrl = input.redirect_url;
  if (input.error_redirect_url !== undefined) found.errorRedirectUrl = input.error_redirect_url;
  if (input.project_id !== undefined) found.project = await resolveProject(em, found.workspace!.id, input.project_id);
  // After the schema: a honeypot must not be one of the fields the form ends up with, and the
  // auto-reply's address and placeholders must name some of them.
  const { closedChanged } = applyInboxSettings(found, input, services.secretBox, services.now());
  found.autoReply = mergedAutoReply(found.autoReply ?? null, input.auto_reply, input.auto_reply ? await autoReplySetter(em, actor) : null);
  assertAutoReplyFits(found.autoReply, found.schema);
  const notifyEmails = requestedNotifyEmails(input);
  const unchanged = notifyEmails === undefined || notifyEmails.join('\n') === found.notifyEmails.map((address) => address.email).join('\n');
  if (unchanged) return { emailQueued: false, closedChanged };
  // A removed address's link is kept (it verifies nothing while the address is off the list), so
  // that putting the address back sends it nothing new: removing and adding it again is no way to
  // mail a stranger over and over.
  return { emailQueued: await verifyNotifyEmails(em, services, found, changeNotifyEmails(found, notifyEmails)), closedChanged };
}

export const formsRouter = router({
  create: formsScopeOrAnonymousProcedure
    .meta(
      rest('POST /v1/forms', 201, "Create a form: claimed in the key's workspace (or `workspace_id` with a session), or unclaimed without credentials", {
        errors: ['unauthenticated', 'workspace_not_found', 'project_not_found', 'rate_limited'],
        idempotent: true,
        confirmedAddress: WRITING_AN_AUTO_REPLY,
      }),
    )
    .input(formCreateInput)
    .output(createdForm)
    .mutation(({ ctx, input }) => (ctx.scope === null || ctx.actor === null ? createUnclaimed(ctx, input) : createClaimed(ctx, ctx.scope, ctx.actor, input))),

  get: formsScopeProcedure
    .meta(rest('GET /v1/forms/:form_id', 200, 'Read a claimed form', { errors: ['form_not_found'] }))
    .input(formIdInput)
    .output(form)
    .query(async ({ ctx, input }) => formToWire(await readReachableForm(ctx.services.formCache, ctx.em, ctx.scope, input.form_id))),

  update: formsScopeProcedure
    .meta(
      rest('PATCH /v1/forms/:form_id', 200, 'Update some fields of a claimed form', {
        errors: ['form_not_found', 'project_not_found', 'rate_limited'],
        confirmedAddress: WRITING_AN_AUTO_REPLY,
      }),
    )
    .input(formUpdateInput)
    .output(form)
    .mutation(async ({ ctx, input }) => {
      const reachable = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      // `closed` has audit events of its own (form.closed, form.reopened).
      const changed = UPDATABLE.filter((field) => field !== 'closed' && input[field] !== undefined);
      // One transaction: the change, its audit event and any verification email commit together.
      const { updated, emailQueued, eventsQueued } = await ctx.em.transactional(async (em) => {
        // The row lock orders concurrent updates of one form, so each new notify_email's link
        // replaces the one before and a single link stays live.
        const found = await em.getRepository(Form).findOneForUpdateOrFail({ id: reachable.id }, formGone);
        const { emailQueued, closedChanged } = await applyUpdate(em, ctx.services, found, input, ctx.actor);
        const audit = em.getRepository(AuditEvent);
        const target = { type: 'form', id: found.id };
        if (changed.length > 0) {
          audit.record({ workspaceId: found.workspace!.id, action: 'form.updated', actor: ctx.actor, target, data: { fields: changed } });
        }
        let eventsQueued = false;
        if (closedChanged) {
          const action = found.closed ? 'form.closed' : 'form.reopened';
          audit.record({ workspaceId: found.workspace!.id, action, actor: ctx.actor, target });
          eventsQueued = await ctx.services.formStateEvents(em, found, action, new Date());
        }
        return { updated: found, emailQueued, eventsQueued };
      });
      ctx.services.formCache.forget(updated.id);
      if (emailQueued) ctx.services.wakeMailer();
      if (eventsQueued) ctx.services.wakeWebhooks();
      return formToWire(updated);
    }),

  setRetention: formMemberProcedure
    .meta(
      rest(
        'PUT /v1/forms/:form_id/retention',
        200,
        "How long a form keeps its submissions (members' sessions only: a shorter retention deletes submissions, which a key may not)",
      ),
    )
    .input(formRetentionInput)
    .output(form)
    .mutation(async ({ ctx, input }) => {
      const updated = await ctx.em.transactional(async (em) => {
        const found = await em.getRepository(Form).findOneForUpdateOrFail({ id: ctx.form.id }, formGone);
        if (found.retentionDays === input.retention_days) return found;
        found.retentionDays = input.retention_days;
        em.getRepository(AuditEvent).record({
          workspaceId: found.workspace!.id,
          action: 'form.updated',
          actor: ctx.actor,
          target: { type: 'form', id: found.id },
          data: { fields: ['retention_days'] },
        });
        return found;
      });
      ctx.services.formCache.forget(updated.id);
      return formToWire(updated);
    }),

  resendVerification: formsScopeProcedure
    .meta(
      rest('POST /v1/forms/:form_id/resend-verification', 202, "Send a new verification link to each of the form's notify_emails not verified yet", {
        errors: ['form_not_found', 'no_notify_email', 'email_already_verified', 'rate_limited'],
      }),
    )
    .input(formIdInput)
    .output(formVerificationSent)
    .mutation(async ({ ctx, input }) => {
      const reachable = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const sentTo = await ctx.em.transactional(async (em) => {
        // The row lock makes "check the interval, then send" one step for concurrent resends.
        const found = await em.getRepository(Form).findOneForUpdateOrFail({ id: reachable.id }, formGone);
        if (found.notifyEmails.length === 0) throw new ApiError('no_notify_email');
        const waiting = found.notifyEmails.filter((address) => !address.verified).map((address) => address.email);
        if (waiting.length === 0) throw new ApiError('email_already_verified', { message: 'Every notification address of the form is already verified.' });
        assertResendAllowed(ctx.services, found.verificationSentAt ?? null);
        for (const to of waiting) await sendVerification(em, ctx.services, found, to);
        return waiting.map(maskEmail);
      });
      ctx.services.wakeMailer();
      return { sent_to: sentTo[0]!, sent_to_all: sentTo };
    }),

  claim: memberProcedure
    .meta(
      rest('POST /v1/forms/:form_id/claim', 200, 'Claim an unclaimed form into a workspace of the caller, with its claim token', {
        errors: ['form_not_found', 'form_already_claimed'],
      }),
    )
    .input(formClaimInput)
    .output(form)
    .mutation(async ({ ctx, input }) => {
      // A wrong token and an unknown form look alike, so tokens cannot be probed form by form.
      if (!isId('form', input.form_id) || !isWellFormedClaimToken(input.claim_token)) {
        throw new ApiError('form_not_found');
      }
      const project = await resolveProject(ctx.em, ctx.workspaceId, undefined);
      const claimed = await ctx.em.transactional(async (em) => {
        const found = await em.getRepository(Form).findOneForUpdate({ id: input.form_id });
        if (!found || found.claimTokenHash !== sha256(input.claim_token)) throw new ApiError('form_not_found');
        if (found.state === 'claimed') throw new ApiError('form_already_claimed');
        found.state = 'claimed';
        found.workspace = em.getReference(Workspace, ctx.workspaceId);
        found.project = em.getReference(Project, project.id);
        auditByCaller(em, ctx, { action: 'form.claimed', target: { type: 'form', id: found.id }, data: { name: found.name } });
        return found;
      });
      ctx.services.formCache.forget(claimed.id);
      return formToWire(claimed);
    }),

  delete: formOwnerProcedure
    .meta(
      rest(
        'DELETE /v1/forms/:form_id',
        204,
        "Delete a form with everything it holds: its submissions, their emails, its webhooks and their deliveries (owners' sessions only)",
      ),
    )
    .input(formIdInput)
    .mutation(async ({ ctx }) => {
      const formId = ctx.form.id;
      // The submissions first, in short batches, so a large form never holds a long lock; the
      // form's own delete then takes what arrived meanwhile (on delete cascade).
      const submissions = await inBatches(ctx.services.db, async (em, limit) => (await em.getRepository(Submission).deleteBatch(formId, null, limit)).length);
      await ctx.em.transactional(async (em) => {
        await em.getRepository(Form).lockRow(formId);
        // With the row locked no submission can be added (its insert needs the row), so these are the last.
        const stragglers = (await em.getRepository(Submission).deleteBatch(formId, null, Number.MAX_SAFE_INTEGER)).length;
        em.getRepository(AuditEvent).record({
          workspaceId: ctx.form.workspace!.id,
          action: 'form.deleted',
          actor: ctx.actor,
          target: { type: 'form', id: formId },
          data: { name: ctx.form.name, submissions: submissions + stragglers },
        });
        await em.getRepository(Form).deleteNow(formId);
      });
      ctx.services.formCache.forget(formId);
    }),

  list: memberProcedure
    .meta(
      rest(
        'GET /v1/workspaces/:workspace_id/forms',
        200,
        "The workspace's forms, newest first, each with its submission and draft counts and last submission time",
      ),
    )
    .input(formListInput)
    .output(listOf(formListItem, 'FormList'))
    .query(async ({ ctx, input }) => {
      const page = await pageWithin(
        'form',
        input,
        (before, bounds) => ctx.em.getRepository(Form).newestOfWorkspace(ctx.workspaceId, before, bounds),
        formToWire,
      );
      const ids = page.data.map((f) => f.id);
      const stats = await ctx.em.getRepository(Submission).statsOf(ids);
      const drafts = await ctx.em.getRepository(Draft).countsOf(ids, ctx.services.now());
      return {
        ...page,
        data: page.data.map((f) => {
          const counted = stats.get(f.id);
          return {
            ...f,
            submission_count: counted?.count ?? 0,
            last_submission_at: counted?.lastAt ? iso(counted.lastAt) : null,
            draft_count: drafts.get(f.id) ?? 0,
          };
        }),
      };
    }),
});
