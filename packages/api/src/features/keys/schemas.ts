import { TEXT_LIMITS } from '@lfk/db/constants';
import { z } from 'zod';
import { idParam, listInput, text, timestamp , workspaceScoped } from '../../common-schemas.ts';

export const apiKeyStatus = z.enum(['active', 'revoked']);

export const apiKey = z.object({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  status: apiKeyStatus,
  created_by: z.string(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
});

/** The one response that carries the plaintext `key`. */
export const createdApiKey = z.object({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  key: z.string(),
  status: z.literal('active'),
  workspace_id: z.string(),
  created_by: z.string(),
  created_at: timestamp,
});

export const apiKeyCreateInput = workspaceScoped.extend({ name: text(TEXT_LIMITS.apiKeyName).optional() }).strict();
export const apiKeyListInput = workspaceScoped.extend(listInput.shape);
export const apiKeyRevokeInput = workspaceScoped.extend({ key_id: idParam });
