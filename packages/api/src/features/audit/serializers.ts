import type { IAuditEvent } from '@lfk/db';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { auditEvent } from './schemas.ts';

/**
 * The stored row types `action` and `data` loosely (a string, a JSON object); the output schema
 * checks that each event's `data` has its action's shape.
 */
export const auditEventToWire = (e: IAuditEvent) =>
  ({
    id: e.id,
    workspace_id: e.workspace.id,
    action: e.action,
    actor: { type: e.actorType, id: e.actorId },
    target: e.targetType && e.targetId ? { type: e.targetType, id: e.targetId } : null,
    data: e.data,
    created_at: iso(e.createdAt),
  }) as z.input<typeof auditEvent>;
