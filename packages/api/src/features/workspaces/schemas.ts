import { TEXT_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';
import { role, text, timestamp, workspaceScoped } from '../../common-schemas.ts';

export const workspace = z
  .object({ id: z.string(), name: z.string(), role, created_at: timestamp })
  .meta({ id: 'Workspace', description: "A workspace, with the caller's role in it." });
export const workspaceCreateInput = z.strictObject({ name: text(TEXT_LIMITS.workspaceName) });

export const workspaceRenameInput = workspaceScoped.extend({ name: text(TEXT_LIMITS.workspaceName) }).strict();
export const workspaceDeleteInput = workspaceScoped
  .extend({ confirm: z.string().max(1024).describe("The workspace's name, typed to confirm.") })
  .strict();
