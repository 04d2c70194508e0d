import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ACTOR_TYPES } from '@lfk/vocabulary';
import { AuditEventRepository } from '../repositories/audit-events.ts';
import { BaseEntity } from './base.ts';
import { Workspace } from './workspace.ts';

/** Who did what to which resource of a workspace. Never holds a secret. */
export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  repository: () => AuditEventRepository,
  extends: BaseEntity,
  properties: {
    /**
     * No foreign key: writing an event must not lock the workspace's row, or a write that holds a
     * row of the workspace (a form, an invitation) and then records its event would deadlock with
     * the workspace's delete. The delete removes its events itself.
     */
    workspace: () => p.manyToOne(Workspace).createForeignKeyConstraint(false),
    action: p.string().length(64),
    actorType: p.enum(ACTOR_TYPES),
    actorId: p.string().length(40),
    targetType: p.string().length(32).nullable(),
    targetId: p.string().length(40).nullable(),
    data: p.json<Record<string, unknown>>(),
  },
  indexes: [{ properties: ['workspace', 'id'] }],
});
export type IAuditEvent = InferEntity<typeof AuditEvent>;
