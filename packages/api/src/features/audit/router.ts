import { AuditEvent } from '@lfk/db';
import { rest } from '../../procedure-meta.ts';
import { listOf } from '../../common-schemas.ts';
import { auditEvent, auditEventListInput } from './schemas.ts';
import { auditEventToWire } from './serializers.ts';
import { pageNewestFirst } from '../../infrastructure/pagination.ts';
import { ownerProcedure, router } from '../../trpc.ts';

export const auditEventsRouter = router({
  list: ownerProcedure.meta(rest('GET /v1/workspaces/:workspace_id/audit-events', 200,
      "The workspace's audit events, newest first"))
    .input(auditEventListInput)
    .output(listOf(auditEvent))
    .query(({ ctx, input }) => pageNewestFirst(ctx.em.getRepository(AuditEvent), 'evt', { workspace: ctx.workspaceId }, input, auditEventToWire)),
});
