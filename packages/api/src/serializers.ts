import type { IApiKey, IAuditEvent, IForm, IMembership, IProject, ISubmission, IUser, IWorkspace } from '@lfk/db';
import type { Role } from '@lfk/db/constants';
import type { z } from 'zod';
import type { apiKey } from './features/keys/schemas.ts';
import type { user } from './features/accounts/auth-schemas.ts';
import type { form } from './features/forms/schemas.ts';
import type { submission } from './features/submissions/schemas.ts';
import type { auditEvent, member, project, workspace } from './features/accounts/workspace-schemas.ts';

/** Entities → the documented wire objects. Hashes and internal columns never pass through here. */
const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export const userToWire = (u: IUser): z.input<typeof user> => ({
  id: u.id,
  email: u.email,
  name: u.name ?? null,
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

export const apiKeyToWire = (k: IApiKey): z.input<typeof apiKey> => ({
  id: k.id,
  name: k.name ?? null,
  prefix: k.prefix,
  status: k.revokedAt ? 'revoked' : 'active',
  created_by: k.createdBy.id,
  created_at: iso(k.createdAt),
  last_used_at: isoOrNull(k.lastUsedAt),
  revoked_at: isoOrNull(k.revokedAt),
});

export const auditEventToWire = (e: IAuditEvent): z.input<typeof auditEvent> => ({
  id: e.id,
  workspace_id: e.workspace.id,
  action: e.action,
  actor: { type: e.actorType, id: e.actorId },
  target: e.targetType && e.targetId ? { type: e.targetType, id: e.targetId } : null,
  data: e.data,
  created_at: iso(e.createdAt),
});

export const formToWire = (f: IForm): z.input<typeof form> => ({
  id: f.id,
  workspace_id: f.workspace?.id ?? null,
  project_id: f.project?.id ?? null,
  name: f.name,
  state: f.state,
  schema: f.schema.map((field) => ({
    name: field.name,
    type: field.type as z.input<typeof form>['schema'][number]['type'],
    required: field.required,
    ...(field.label !== undefined ? { label: field.label } : {}),
    ...(field.options !== undefined ? { options: field.options } : {}),
  })),
  submission_mode: f.submissionMode,
  allowed_origins: f.allowedOrigins,
  notify_email: f.notifyEmail ?? null,
  notify_email_verified: f.notifyEmailVerified,
  redirect_url: f.redirectUrl ?? null,
  created_at: iso(f.createdAt),
  updated_at: iso(f.updatedAt),
});

export const submissionToWire = (s: ISubmission): z.input<typeof submission> => ({
  id: s.id,
  form_id: s.form.id,
  data: s.data as z.input<typeof submission>['data'],
  source: s.source,
  created_at: iso(s.createdAt),
});
