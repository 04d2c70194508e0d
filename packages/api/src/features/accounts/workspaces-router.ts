import { AuditEvent, Membership, Workspace } from '@lfk/db';
import { rest } from '../../procedure-meta.ts';
import { listInput, listOf } from '../../common-schemas.ts';
import { workspace, workspaceCreateInput, workspaceRenameInput } from './workspace-schemas.ts';
import { workspaceToWire } from './serializers.ts';
import { pageOf } from '../../infrastructure/pagination.ts';
import { createWorkspace } from './workspaces.ts';
import { ownerProcedure, router, sessionProcedure } from '../../trpc.ts';

export const workspacesRouter = router({
  list: sessionProcedure.meta(rest('GET /v1/workspaces', 200, "The caller's workspaces, with the caller's role"))
    .input(listInput)
    .output(listOf(workspace))
    .query(({ ctx, input }) => {
      const memberships = ctx.em.getRepository(Membership);
      const read = (before: string | undefined, limit: number) => memberships.workspacesOf(ctx.session.userId, before, limit);
      return pageOf('ws', input, read, (m) => m.workspace.id, (m) => workspaceToWire(m.workspace, m.role));
    }),

  create: sessionProcedure.meta(rest('POST /v1/workspaces', 201, 'Create a workspace; the caller becomes its owner'))
    .input(workspaceCreateInput)
    .output(workspace)
    .mutation(async ({ ctx, input }) => {
      const created = createWorkspace(ctx.em, ctx.session.userId, input.name, ctx.actor);
      await ctx.em.flush();
      return workspaceToWire(created, 'owner');
    }),

  rename: ownerProcedure.meta(rest('PATCH /v1/workspaces/:workspace_id', 204, 'Rename a workspace (owners)'))
    .input(workspaceRenameInput)
    .mutation(async ({ ctx, input }) => {
      await ctx.em.transactional(async (em) => {
        const found = await em.getRepository(Workspace).findOneForUpdateOrFail({ id: ctx.workspaceId });
        if (found.name === input.name) return;
        em.getRepository(AuditEvent).record({
          workspaceId: ctx.workspaceId,
          action: 'workspace.renamed',
          actor: ctx.actor,
          target: { type: 'workspace', id: ctx.workspaceId },
          data: { from: found.name, to: input.name },
        });
        found.name = input.name;
      });
    }),
});
