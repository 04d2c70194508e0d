import { AuditEvent, type NewAuditEvent } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../trpc.ts';

/**
 * Queues the audit event of what the caller did in the workspace it called in: the workspace and
 * the actor come from the procedure's context, so a handler names only what happened, to what.
 * Written with the change it describes, in one flush.
 */
export function auditByCaller(em: EntityManager, ctx: { workspaceId: string; actor: Actor }, event: Pick<NewAuditEvent, 'action' | 'target' | 'data'>): void {
  em.getRepository(AuditEvent).record({ workspaceId: ctx.workspaceId, actor: ctx.actor, ...event });
}
