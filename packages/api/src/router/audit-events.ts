import { AuditEvent } from '@lfk/db';
import { listOf } from '../schemas/common.ts';
import { auditEvent, auditEventListInput } from '../schemas/workspaces.ts';
import { auditEventToWire } from '../serializers.ts';
import { cursorFilter, page } from '../services/pagination.ts';
import { ownerProcedure, router } from '../trpc.ts';

export const auditEventsRouter = router({
  list: ownerProcedure
    .input(auditEventListInput)
    .output(listOf(auditEvent))
    .query(async ({ ctx, input }) => {
      const before = cursorFilter('evt', input);
      const events = await ctx.em.find(
        AuditEvent,
        { workspace: ctx.workspaceId, ...(before ? { id: before } : {}) },
        { orderBy: { id: 'desc' }, limit: input.limit + 1 },
      );
      return page(events, input.limit, (e) => e.id, auditEventToWire);
    }),
});
