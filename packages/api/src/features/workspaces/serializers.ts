import type { IAuditEvent, IMembership, IProject, IUser, IWorkspace } from '@lfk/db';
import type { Role } from '@lfk/db/constants';
import type { z } from 'zod';
import { iso } from '../../infrastructure/wire.ts';
import type { user } from '../auth/schemas.ts';
import type { auditEvent, member, project, workspace } from './schemas.ts';

/** Accounts and workspaces → their wire objects. Password hashes never pass through here. */
export const userToWire = (u: IUser): z.input<typeof user> => ({
  id: u.id,
  email: u.email,
  name: u.name ?? null,
  email_verified: u.emailVerifiedAt != null,
  created_at: iso(u.createdAt),
});

export const workspaceToWire = (w: IWorkspace, role: Role): z.input<typeof workspace> => ({
  id: w.id,
  name: w.name,
  role,
  created_at: iso(w.createdAt),
});

export const memberToWire = (m: IMembership): z.input<typeof member> => ({
  user_id: m.user.id,
  email: m.user.email,
  name: m.user.name ?? null,
  role: m.role,
  created_at: iso(m.createdAt),
});

export const projectToWire = (p: IProject): z.input<typeof project> => ({
  id: p.id,
  workspace_id: p.workspace.id,
  name: p.name,
  is_default: p.isDefault,
  created_at: iso(p.createdAt),
});

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
