import { AuditEvent, User } from '@lfk/db';
import { rest } from '../../procedure-meta.ts';
import { listOf } from '../../common-schemas.ts';
import { auditEvent, auditEventListInput } from './schemas.ts';
import { auditEventToWire } from './serializers.ts';
import { pageNewestFirst } from '../../infrastructure/pagination.ts';
import { ownerProcedure, router } from '../../trpc.ts';

export const auditEventsRouter = router({
  list: ownerProcedure
    .meta(rest('GET /v1/workspaces/:workspace_id/audit-events', 200, "The workspace's audit events, newest first"))
    .input(auditEventListInput)
    .output(listOf(auditEvent))
    .query(async ({ ctx, input }) => {
      const page = await pageNewestFirst(ctx.em.getRepository(AuditEvent), 'evt', { workspace: ctx.workspaceId }, input, (e) => e);
      // The people it names by address too: a member who has left is still known by it.
      const people = page.data.flatMap((e) => [e.actorType === 'user' ? e.actorId : null, e.targetType === 'user' ? e.targetId : null]);
      const emails = await ctx.em.getRepository(User).emailsOf([...new Set(people.filter((id): id is string => id !== null))]);
      return { ...page, data: page.data.map((e) => auditEventToWire(e, emails)) };
    }),
});
