import { AuditEvent, Form, type IForm, isId, newId, Project, Workspace } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Context, Services } from '../../context.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { generateClaimToken, isWellFormedClaimToken } from '../../credentials/tokens.ts';
import { ApiError } from '../../errors.ts';
import { rest } from '../../procedure-meta.ts';
import { listOf } from '../../common-schemas.ts';
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
  formUpdateInput,
  verificationSent,
} from './schemas.ts';
import { formToWire } from './serializers.ts';
import { findReachableForm, readReachableForm, resolveProject } from './rules.ts';
import { runIdempotently } from '../../infrastructure/idempotency.ts';
import { pageNewestFirst } from '../../infrastructure/pagination.ts';
import { assertResendAllowed, maskEmail, sendVerification } from '../email-verification/sending.ts';
import {
  type Actor,
  type FormsScope,
  formsScopeOrAnonymousProcedure,
  formsScopeProcedure,
  memberProcedure,
  router,
} from '../../trpc.ts';

const UPDATABLE: (keyof Omit<FormUpdateInput, 'form_id'>)[] = [
  'name',
  'schema',
  'submission_mode',
  'allowed_origins',
  'project_id',
  'redirect_url',
  'notify_email',
];

function invalid(path: string, message: string): ApiError {
  return new ApiError('invalid_request', { details: [{ path, message }] });
}

/** Without credentials: an unclaimed form, a claim token shown once, a verification email. */
async function createUnclaimed(ctx: Context, input: FormCreateInput) {
  // A workspace or project named without credentials: the caller meant to sign in.
  if (input.workspace_id !== undefined || input.project_id !== undefined) throw new ApiError('unauthenticated');
  const notifyEmail = input.notify_email;
  if (!notifyEmail) {
    throw invalid('notify_email', 'Required for a form made without credentials: submissions are sent there.');
  }
  if (input.submission_mode === 'api_key') {
    throw invalid('submission_mode', 'api_key mode needs a claimed form: create it with a key or a session.');
  }
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
      submissionMode: 'browser',
      allowedOrigins: input.allowed_origins,
      notifyEmail,
      redirectUrl: input.redirect_url ?? null,
      claimTokenHash: claim.hash,
      verificationSentAt: null,
    });
    await sendVerification(em, ctx.services, record);
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
  if (workspaceId === null) throw invalid('workspace_id', 'Required when signed in with a session.');
  if (!isId('ws', workspaceId) || !(await scope.canReach(workspaceId))) throw new ApiError('workspace_not_found');
  const project = await resolveProject(ctx.em, workspaceId, input.project_id);
  const created = await runIdempotently(ctx, { operation: 'forms.create', target: workspaceId }, input, async (em) => {
    const record = em.create(Form, {
      id: newId('form'),
      workspace: workspaceId,
      project: project.id,
      name: input.name,
      state: 'claimed',
      schema: input.schema,
      submissionMode: input.submission_mode,
      allowedOrigins: input.allowed_origins,
      notifyEmail: input.notify_email ?? null,
      redirectUrl: input.redirect_url ?? null,
      claimTokenHash: null,
      verificationSentAt: null,
    });
    if (record.notifyEmail) await sendVerification(em, ctx.services, record);
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
  if (input.notify_email) ctx.services.wakeMailer();
  return created;
}

/** Applies a PATCH; a changed `notify_email` starts verification over. True when an email was queued. */
async function applyUpdate(em: EntityManager, services: Services, found: IForm, input: FormUpdateInput) {
  if (input.name !== undefined) found.name = input.name;
  if (input.schema !== undefined) found.schema = input.schema;
  if (input.submission_mode !== undefined) found.submissionMode = input.submission_mode;
  if (input.allowed_origins !== undefined) found.allowedOrigins = input.allowed_origins;
  if (input.redirect_url !== undefined) found.redirectUrl = input.redirect_url;
  if (input.project_id !== undefined) found.project = await resolveProject(em, found.workspace!.id, input.project_id);
  if (input.notify_email === undefined || input.notify_email === found.notifyEmail) return false;
  found.notifyEmail = input.notify_email;
  found.notifyEmailVerified = false;
  if (input.notify_email === null) return false;
  await sendVerification(em, services, found);
  return true;
}

export const formsRouter = router({
  create: formsScopeOrAnonymousProcedure.meta(rest('POST /v1/forms', 201,
      "Create a form: claimed in the key's workspace (or `workspace_id` with a session), or unclaimed without credentials",
      { errors: ['unauthenticated', 'workspace_not_found', 'project_not_found', 'rate_limited'], idempotent: true }))
    .input(formCreateInput)
    .output(createdForm)
    .mutation(({ ctx, input }) =>
      ctx.scope === null || ctx.actor === null
        ? createUnclaimed(ctx, input)
        : createClaimed(ctx, ctx.scope, ctx.actor, input),
    ),

  get: formsScopeProcedure.meta(rest('GET /v1/forms/:form_id', 200, 'Read a claimed form', { errors: ['form_not_found'] }))
    .input(formIdInput)
    .output(form)
    .query(async ({ ctx, input }) => formToWire(await readReachableForm(ctx.em, ctx.scope, input.form_id))),

  update: formsScopeProcedure.meta(rest('PATCH /v1/forms/:form_id', 200, 'Update some fields of a claimed form',
      { errors: ['form_not_found', 'project_not_found'] }))
    .input(formUpdateInput)
    .output(form)
    .mutation(async ({ ctx, input }) => {
      const reachable = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const changed = UPDATABLE.filter((field) => input[field] !== undefined);
      // One transaction: the change, its audit event and any verification email commit together.
      const { updated, emailQueued } = await ctx.em.transactional(async (em) => {
        // The row lock orders concurrent updates of one form, so each new notify_email's link
        // replaces the one before and a single link stays live.
        const found = await em.getRepository(Form).findOneForUpdateOrFail({ id: reachable.id });
        const queued = await applyUpdate(em, ctx.services, found, input);
        if (changed.length > 0) {
          em.getRepository(AuditEvent).record({
            workspaceId: found.workspace!.id,
            action: 'form.updated',
            actor: ctx.actor,
            target: { type: 'form', id: found.id },
            data: { fields: changed },
          });
        }
        return { updated: found, emailQueued: queued };
      });
      if (emailQueued) ctx.services.wakeMailer();
      return formToWire(updated);
    }),

  resendVerification: formsScopeProcedure.meta(rest('POST /v1/forms/:form_id/resend-verification', 202,
      "Send a new verification link to the form's notify_email",
      { errors: ['form_not_found', 'no_notify_email', 'email_already_verified', 'rate_limited'] }))
    .input(formIdInput)
    .output(verificationSent)
    .mutation(async ({ ctx, input }) => {
      const reachable = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const sentTo = await ctx.em.transactional(async (em) => {
        // The row lock makes "check the interval, then send" one step for concurrent resends.
        const found = await em.getRepository(Form).findOneForUpdateOrFail({ id: reachable.id });
        if (!found.notifyEmail) throw new ApiError('no_notify_email');
        if (found.notifyEmailVerified) throw new ApiError('email_already_verified');
        assertResendAllowed(ctx.services, found);
        await sendVerification(em, ctx.services, found);
        return maskEmail(found.notifyEmail);
      });
      ctx.services.wakeMailer();
      return { sent_to: sentTo };
    }),

  claim: memberProcedure.meta(rest('POST /v1/forms/:form_id/claim', 200,
      'Claim an unclaimed form into a workspace of the caller, with its claim token',
      { errors: ['form_not_found', 'form_already_claimed'] }))
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
        em.getRepository(AuditEvent).record({
          workspaceId: ctx.workspaceId,
          action: 'form.claimed',
          actor: ctx.actor,
          target: { type: 'form', id: found.id },
          data: { name: found.name },
        });
        return found;
      });
      return formToWire(claimed);
    }),

  list: memberProcedure.meta(rest('GET /v1/workspaces/:workspace_id/forms', 200, "The workspace's forms, newest first"))
    .input(formListInput)
    .output(listOf(form))
    .query(({ ctx, input }) => pageNewestFirst(ctx.em.getRepository(Form), 'form', { workspace: ctx.workspaceId }, input, formToWire)),
});
