import { Membership } from '@lfk/db';
import { rest } from '../../procedure-meta.ts';
import { listInput, listOf } from '../../common-schemas.ts';
import { workspace, workspaceCreateInput } from './workspace-schemas.ts';
import { workspaceToWire } from './serializers.ts';
import { pageOf } from '../../infrastructure/pagination.ts';
import { createWorkspace } from './workspaces.ts';
import { router, sessionProcedure } from '../../trpc.ts';

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
});
