import { AuditEvent, newId } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../trpc.ts';

export type AuditAction =
  | 'api_key.created'
  | 'api_key.revoked'
  | 'form.created'
  | 'form.updated'
  | 'form.claimed'
  | 'member.added'
  | 'member.removed'
  | 'project.created'
  | 'workspace.created';

/** Queues an audit event on `em`; it is written with the change it describes, in one flush. */
export function recordAudit(
  em: EntityManager,
  event: {
    workspaceId: string;
    action: AuditAction;
    actor: Actor;
    target?: { type: string; id: string };
    data?: Record<string, unknown>;
  },
): void {
  em.create(AuditEvent, {
    id: newId('evt'),
    workspace: event.workspaceId,
    action: event.action,
    actorType: event.actor.type,
    actorId: event.actor.id,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    data: event.data ?? {},
  });
}
