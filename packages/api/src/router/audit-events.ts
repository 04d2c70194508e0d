import { AuditEvent } from '@lfk/db';
import { listOf } from '../schemas/common.ts';
import { auditEvent, auditEventListInput } from '../schemas/workspaces.ts';
import { auditEventToWire } from '../serializers.ts';
import { pageNewestFirst } from '../services/pagination.ts';
import { ownerProcedure, router } from '../trpc.ts';

export const auditEventsRouter = router({
  list: ownerProcedure
    .meta({ rest: {
      method: 'GET', path: '/v1/workspaces/:workspace_id/audit-events', status: 200,
      summary: "The workspace's audit events, newest first",
    } })
    .input(auditEventListInput)
    .output(listOf(auditEvent))
    .query(({ ctx, input }) => pageNewestFirst(ctx.em, AuditEvent, 'evt', { workspace: ctx.workspaceId }, input, auditEventToWire)),
});
