import { Membership, User, Workspace } from '@lfk/db';
import { DROPPING_REQUIRED_TWO_FACTOR, rest } from '../../procedure-meta.ts';
import { listInput, listOf } from '../../common-schemas.ts';
import { workspace, workspaceCreateInput, workspaceDeleteInput, workspaceUpdateInput } from './schemas.ts';
import { ApiError, invalidField } from '../../errors.ts';
import { retryingDeadlocks } from '../../infrastructure/deadlocks.ts';
import { workspaceToWire } from './serializers.ts';
import { pageOf } from '../../infrastructure/pagination.ts';
import { createWorkspace } from './workspaces.ts';
import { ownerProcedure, router, sessionProcedure } from '../../trpc.ts';
import { auditByCaller } from '../../infrastructure/audit.ts';

export const workspacesRouter = router({
  list: sessionProcedure
    .meta(rest('GET /v1/workspaces', 200, "The caller's workspaces, with the caller's role"))
    .input(listInput)
    .output(listOf(workspace))
    .query(({ ctx, input }) => {
      const memberships = ctx.em.getRepository(Membership);
      const read = (before: string | undefined, limit: number) => memberships.workspacesOf(ctx.session.userId, before, limit);
      return pageOf(
        'ws',
        input,
        read,
        (m) => m.workspace.id,
        (m) => workspaceToWire(m.workspace, m.role),
      );
    }),

  create: sessionProcedure
    .meta(rest('POST /v1/workspaces', 201, 'Create a workspace; the caller becomes its owner'))
    .input(workspaceCreateInput)
    .output(workspace)
    .mutation(async ({ ctx, input }) => {
      const created = createWorkspace(ctx.em, ctx.session.userId, input.name, ctx.actor);
      await ctx.em.flush();
      return workspaceToWire(created, 'owner');
    }),

  update: ownerProcedure
    .meta(
      rest(
        'PATCH /v1/workspaces/:workspace_id',
        204,
        "Rename a workspace, set how long its files' download links live, or require a second factor of its members (owners)",
        { errors: ['two_factor_not_enabled'], sudo: DROPPING_REQUIRED_TWO_FACTOR },
      ),
    )
    .input(workspaceUpdateInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.em.transactional(async (em) => {
        const found = await em.getRepository(Workspace).lock(ctx.workspaceId);
        if (!found) throw new ApiError('workspace_not_found');
        const audit = (
          action: 'workspace.renamed' | 'workspace.file_link_ttl_changed' | 'workspace.two_factor_requirement_changed',
          data: Record<string, unknown>,
        ) => auditByCaller(em, ctx, { action, target: { type: 'workspace', id: ctx.workspaceId }, data });
        if (input.name !== undefined && found.name !== input.name) {
          audit('workspace.renamed', { from: found.name, to: input.name });
          found.name = input.name;
        }
        if (input.file_link_ttl !== undefined && (found.fileLinkTtl ?? null) !== input.file_link_ttl) {
          audit('workspace.file_link_ttl_changed', { from: found.fileLinkTtl ?? null, to: input.file_link_ttl });
          found.fileLinkTtl = input.file_link_ttl;
        }
        if (input.require_two_factor !== undefined && found.requireTwoFactor !== input.require_two_factor) {
          // An owner without a factor would lock themselves out of the workspace they set.
          if (input.require_two_factor && !(await em.getRepository(User).hasSecondFactor(ctx.session.userId))) {
            throw new ApiError('two_factor_not_enabled', {
              message: 'Set up a second factor for your own account first (an authenticator app or a passkey): requiring one would lock you out.',
            });
          }
          audit('workspace.two_factor_requirement_changed', { from: found.requireTwoFactor, to: input.require_two_factor });
          found.requireTwoFactor = input.require_two_factor;
        }
      });
    }),

  /**
   * Deletes the workspace and everything in it, for good: keys (refused from the commit on, on
   * every replica), forms and their submissions, projects, members, invitations, the audit log.
   * The owner confirms by typing the workspace's name.
   */
  delete: ownerProcedure
    .meta(
      rest(
        'DELETE /v1/workspaces/:workspace_id',
        204,
        'Delete a workspace with everything in it: its keys stop at once, its forms and submissions are deleted (owners; confirm with its name)',
        { sudo: true },
      ),
    )
    .input(workspaceDeleteInput)
    .mutation(async ({ ctx, input }) => {
      const deleted = await retryingDeadlocks(() =>
        ctx.em.transactional(async (em) => {
          const workspaces = em.getRepository(Workspace);
          // Locked: a rename meanwhile cannot make the typed name stale, and writes into it wait, then find it gone.
          const found = await workspaces.lock(ctx.workspaceId);
          if (!found) throw new ApiError('workspace_not_found');
          // Asked again under the lock: an owner demoted or removed since the builder's check deletes nothing.
          if ((await em.getRepository(Membership).roleOf(ctx.workspaceId, ctx.session.userId)) !== 'owner') throw new ApiError('owner_required');
          if (input.confirm !== found.name) {
            throw invalidField('confirm', "Must be the workspace's name, exactly as it is written.");
          }
          return workspaces.deleteNow(ctx.workspaceId);
        }),
      );
      for (const hash of deleted.keyHashes) ctx.services.apiKeyCache.forget(hash);
      for (const formId of deleted.formIds) ctx.services.formCache.forget(formId);
    }),
});
