import type { IAuditEvent } from '@lfk/db';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { auditEvent } from './schemas.ts';

/** A person's address beside their id (null once the account is deleted); nothing for what is not a person. */
const personOf = (type: string, id: string, emails: ReadonlyMap<string, string>) => (type === 'user' ? { email: emails.get(id) ?? null } : {});

/**
 * The stored row types `action` and `data` loosely (a string, a JSON object); the output schema
 * checks that each event's `data` has its action's shape.
 */
export const auditEventToWire = (e: IAuditEvent, emails: ReadonlyMap<string, string>) =>
  ({
    id: e.id,
    workspace_id: e.workspace.id,
    action: e.action,
    actor: { type: e.actorType, id: e.actorId, ...personOf(e.actorType, e.actorId, emails) },
    target: e.targetType && e.targetId ? { type: e.targetType, id: e.targetId, ...personOf(e.targetType, e.targetId, emails) } : null,
    data: e.data,
    created_at: iso(e.createdAt),
  }) as z.input<typeof auditEvent>;
