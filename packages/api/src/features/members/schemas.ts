import { z } from 'zod';
import { idParam, listInput, role, timestamp, workspaceScoped } from '../../common-schemas.ts';

export const member = z
  .object({
    user_id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role,
    created_at: timestamp,
  })
  .meta({ id: 'Member' });
export const memberListInput = workspaceScoped.extend(listInput.shape);
export const memberRemoveInput = workspaceScoped.extend({ user_id: idParam });
export const memberRoleInput = workspaceScoped.extend({ user_id: idParam, role }).strict();
