import type { IApiKey } from '@lfk/db';
import type { z } from 'zod';
import { iso, isoOrNull } from '../../infrastructure/wire.ts';
import type { apiKey } from './schemas.ts';

/** A key as listed: its display prefix, never its hash. */
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
