import { TEXT_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';
import { listInput, text, timestamp, workspaceScoped } from '../../common-schemas.ts';

export const project = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    is_default: z.boolean(),
    created_at: timestamp,
  })
  .meta({ id: 'Project' });
export const projectListInput = workspaceScoped.extend(listInput.shape);
export const projectCreateInput = workspaceScoped.extend({ name: text(TEXT_LIMITS.projectName) }).strict();
