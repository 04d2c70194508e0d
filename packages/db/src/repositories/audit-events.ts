import { BaseRepository } from './base-repository.ts';
import type { ActorType, AuditAction } from '@lfk/vocabulary';
import type { IAuditEvent } from '../entities/audit-event.ts';
import { newId } from '../ids.ts';

export interface NewAuditEvent {
  workspaceId: string;
  action: AuditAction;
  actor: { type: ActorType; id: string };
  target?: { type: string; id: string };
  data?: Record<string, unknown>;
}

export class AuditEventRepository extends BaseRepository<IAuditEvent> {
  /** Queues the event on this repository's EntityManager: it is written with the change it describes, in one flush. */
  record(event: NewAuditEvent): void {
    this.create({
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
}
