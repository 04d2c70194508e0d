import { ACTOR_TYPES, TEXT_LIMITS } from '@lfk/db/constants';
import { z } from 'zod';
import { email, idParam, listInput, role, text, timestamp, workspaceScoped } from '../../common-schemas.ts';

export const workspace = z.object({ id: z.string(), name: z.string(), role, created_at: timestamp });
export const workspaceCreateInput = z.strictObject({ name: text(TEXT_LIMITS.workspaceName) });

export const member = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role,
  created_at: timestamp,
});
export const memberListInput = workspaceScoped.extend(listInput.shape);
export const memberAddInput = workspaceScoped.extend({ email, role: role.default('member') }).strict();
export const memberRemoveInput = workspaceScoped.extend({ user_id: idParam });

export const project = z.object({
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  is_default: z.boolean(),
  created_at: timestamp,
});
export const projectListInput = workspaceScoped.extend(listInput.shape);
export const projectCreateInput = workspaceScoped.extend({ name: text(TEXT_LIMITS.projectName) }).strict();

export const auditEvent = z.object({
  id: z.string(),
  workspace_id: z.string(),
  action: z.string(),
  actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string() }),
  target: z.object({ type: z.string(), id: z.string() }).nullable(),
  data: z.record(z.string(), z.unknown()),
  created_at: timestamp,
});
export const auditEventListInput = workspaceScoped.extend(listInput.shape);
