import { Project } from '@lfk/db';
import { rest } from '../../procedure-meta.ts';
import { listOf } from '../../common-schemas.ts';
import { project, projectCreateInput, projectListInput } from './schemas.ts';
import { projectToWire } from './serializers.ts';
import { pageNewestFirst } from '../../infrastructure/pagination.ts';
import { memberProcedure, ownerProcedure, router } from '../../trpc.ts';
import { auditByCaller } from '../../infrastructure/audit.ts';

export const projectsRouter = router({
  list: memberProcedure
    .meta(rest('GET /v1/workspaces/:workspace_id/projects', 200, "The workspace's projects"))
    .input(projectListInput)
    .output(listOf(project))
    .query(({ ctx, input }) => pageNewestFirst(ctx.em.getRepository(Project), 'prj', { workspace: ctx.workspaceId }, input, projectToWire)),

  create: ownerProcedure
    .meta(rest('POST /v1/workspaces/:workspace_id/projects', 201, 'Create a project'))
    .input(projectCreateInput)
    .output(project)
    .mutation(async ({ ctx, input }) => {
      const created = ctx.em.getRepository(Project).add(ctx.workspaceId, input.name);
      auditByCaller(ctx.em, ctx, { action: 'project.created', target: { type: 'project', id: created.id } });
      await ctx.em.flush();
      return projectToWire(created);
    }),
});
