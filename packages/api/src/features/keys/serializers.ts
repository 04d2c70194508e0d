import { type DayUses, type IApiKey, keyStateAt } from '@lfk/db';
import { totalRefused } from '@lfk/vocabulary';
import type { z } from 'zod';
import { iso, isoOrNull } from '../../infrastructure/wire.ts';
import type { apiKey, createdApiKey } from './schemas.ts';

/** A key as listed: its display prefix, never its hash; `today`, its uses this UTC day (none when absent). */
export const apiKeyToWire = (k: IApiKey, now: Date, today: DayUses | undefined): z.input<typeof apiKey> => {
  const state = keyStateAt(k, now);
  return {
    id: k.id,
    name: k.name ?? null,
    description: k.description ?? null,
    prefix: k.prefix,
    status: state.status,
    allowed_ips: k.allowedIps ?? null,
    created_by: k.createdBy?.id ?? null,
    created_at: iso(k.createdAt),
    expires_at: isoOrNull(k.expiresAt),
    last_used_at: isoOrNull(k.lastUsedAt),
    last_used_ip: k.lastUsedIp ?? null,
    last_used_user_agent: k.lastUsedUserAgent ?? null,
    revoked_at: isoOrNull(state.revokedAt),
    revoked_reason: state.reason,
    rolled_to: k.rolledTo ?? null,
    uses_today: {
      requests: today?.accepted ?? 0,
      refused: today ? totalRefused(today.refused) : 0,
    },
  };
};

/** A key just made (created, or a roll's successor), with its plaintext: the only answer that holds it. */
export const createdKeyToWire = (k: IApiKey, plaintext: string, workspaceId: string): z.input<typeof createdApiKey> => ({
  id: k.id,
  name: k.name ?? null,
  description: k.description ?? null,
  prefix: k.prefix,
  key: plaintext,
  status: 'active',
  allowed_ips: k.allowedIps ?? null,
  workspace_id: workspaceId,
  created_by: k.createdBy?.id ?? null,
  created_at: iso(k.createdAt),
  expires_at: isoOrNull(k.expiresAt),
});
