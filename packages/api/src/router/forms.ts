import { Form, type IForm, isId, newId, Project } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { ApiError } from '../errors.ts';
import { form, formCreateInput, formIdInput, formUpdateInput, type FormUpdateInput } from '../schemas/forms.ts';
import { formToWire } from '../serializers.ts';
import { recordAudit } from '../services/audit.ts';
import { type FormsScope, formsScopeProcedure, router } from '../trpc.ts';

/** A claimed form this caller may reach; anything else, unclaimed forms included, is "not found". */
async function findReachableForm(em: EntityManager, scope: FormsScope, formId: string): Promise<IForm> {
  if (!isId('form', formId)) throw new ApiError('form_not_found');
  const found = await em.findOne(Form, { id: formId, state: 'claimed' });
  if (!found?.workspace || !(await scope.canReach(found.workspace.id))) throw new ApiError('form_not_found');
  return found;
}

/** The project a form goes in: the one named (of the same workspace), else the default one. */
async function resolveProject(em: EntityManager, workspaceId: string, projectId: string | undefined) {
  if (projectId === undefined) {
    return em.findOneOrFail(Project, { workspace: workspaceId, isDefault: true });
  }
  const project = isId('prj', projectId) ? await em.findOne(Project, { id: projectId, workspace: workspaceId }) : null;
  if (!project) throw new ApiError('project_not_found');
  return project;
}

const UPDATABLE: (keyof Omit<FormUpdateInput, 'form_id'>)[] = [
  'name',
  'schema',
  'submission_mode',
  'allowed_origins',
  'project_id',
  'redirect_url',
];

export const formsRouter = router({
  create: formsScopeProcedure
    .input(formCreateInput)
    .output(form)
    .mutation(async ({ ctx, input }) => {
      const workspaceId = input.workspace_id ?? ctx.scope.keyWorkspaceId;
      if (workspaceId === null) {
        throw new ApiError('invalid_request', {
          details: [{ path: 'workspace_id', message: 'Required when signed in with a session.' }],
        });
      }
      if (!isId('ws', workspaceId) || !(await ctx.scope.canReach(workspaceId))) {
        throw new ApiError('workspace_not_found');
      }
      const project = await resolveProject(ctx.em, workspaceId, input.project_id);
      const created = ctx.em.create(Form, {
        id: newId('form'),
        workspace: workspaceId,
        project,
        name: input.name,
        state: 'claimed',
        schema: input.schema,
        submissionMode: input.submission_mode,
        allowedOrigins: input.allowed_origins,
        notifyEmail: null,
        redirectUrl: input.redirect_url ?? null,
        claimTokenHash: null,
      });
      recordAudit(ctx.em, {
        workspaceId,
        action: 'form.created',
        actor: ctx.actor,
        target: { type: 'form', id: created.id },
        data: { name: created.name },
      });
      await ctx.em.flush();
      return formToWire(created);
    }),

  get: formsScopeProcedure
    .input(formIdInput)
    .output(form)
    .query(async ({ ctx, input }) => formToWire(await findReachableForm(ctx.em, ctx.scope, input.form_id))),

  update: formsScopeProcedure
    .input(formUpdateInput)
    .output(form)
    .mutation(async ({ ctx, input }) => {
      const found = await findReachableForm(ctx.em, ctx.scope, input.form_id);
      const workspaceId = found.workspace!.id;
      const changed = UPDATABLE.filter((field) => input[field] !== undefined);
      if (input.name !== undefined) found.name = input.name;
      if (input.schema !== undefined) found.schema = input.schema;
      if (input.submission_mode !== undefined) found.submissionMode = input.submission_mode;
      if (input.allowed_origins !== undefined) found.allowedOrigins = input.allowed_origins;
      if (input.redirect_url !== undefined) found.redirectUrl = input.redirect_url;
      if (input.project_id !== undefined) found.project = await resolveProject(ctx.em, workspaceId, input.project_id);
      if (changed.length > 0) {
        recordAudit(ctx.em, {
          workspaceId,
          action: 'form.updated',
          actor: ctx.actor,
          target: { type: 'form', id: found.id },
          data: { fields: changed },
        });
        await ctx.em.flush();
      }
      return formToWire(found);
    }),
});
