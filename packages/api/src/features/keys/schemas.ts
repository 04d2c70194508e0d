import {
  API_KEY_EXPIRY_SECONDS,
  API_KEY_REFUSAL_REASONS,
  API_KEY_REVOKED_REASONS,
  API_KEY_ROLL_GRACE_SECONDS,
  API_KEY_USAGE_DAYS,
  TEXT_LIMITS,
} from '@lfk/vocabulary';
import { z } from 'zod';
import { idParam, listInput, queryInteger, text, timestamp, workspaceScoped } from '../../common-schemas.ts';
import { allowedIpsInput } from '../../credentials/allowed-ips-schemas.ts';

export const apiKeyStatus = z.enum(['active', 'revoked']);
export const apiKeyRevokedReason = z.enum(API_KEY_REVOKED_REASONS);

/** Where a key may be used from, as stored and answered: normalised addresses and ranges, null for anywhere. */
const allowedIpsOut = z
  .array(z.string())
  .nullable()
  .describe(
    'The IPv4 and IPv6 addresses and CIDR ranges the key may be used from; null for anywhere. A request from elsewhere gets the same 401 as an unknown key.',
  );

const description = text(TEXT_LIMITS.apiKeyDescription).nullable().describe('What the key is for, for its owners.');

export const apiKey = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    prefix: z.string(),
    status: apiKeyStatus,
    allowed_ips: allowedIpsOut,
    created_by: z.string().nullable().describe('The user who made it; null once their account is deleted.'),
    created_at: timestamp,
    /** When the key stops working on its own (an expiry, or the end of a roll's grace); null for never. */
    expires_at: timestamp.nullable(),
    last_used_at: timestamp.nullable(),
    /** The address and `User-Agent` of the last use, written with `last_used_at`. */
    last_used_ip: z.string().nullable(),
    last_used_user_agent: z.string().nullable(),
    revoked_at: timestamp.nullable(),
    /** Why it stopped working: `revoked` by an owner, `expired`, `rolled` (its grace ended) or `leaked`. */
    revoked_reason: apiKeyRevokedReason.nullable(),
    /** The key that replaced it in a roll. */
    rolled_to: z.string().nullable(),
    uses_today: z
      .object({
        requests: z.number().int().describe('Requests it authenticated.'),
        refused: z.number().int().describe('Requests that presented it and were refused: it had stopped working, or came from an address not allowed.'),
      })
      .describe('This UTC day so far, written in batches (the last few seconds may not show yet): is anything still using it?'),
  })
  .meta({ id: 'ApiKey' });

/** What a key knows of itself (`GET /v1/api-keys/current`): nothing secret, nothing of other keys. */
export const currentApiKey = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    prefix: z.string(),
    workspace_id: z.string().describe('The workspace the key acts for.'),
    created_at: timestamp,
    expires_at: timestamp.nullable().describe("When it stops working on its own (an expiry, or the end of a roll's grace); null for never."),
    allowed_ips: allowedIpsOut,
  })
  .meta({ id: 'CurrentApiKey' });

/** The one response that carries the plaintext `key`. */
export const createdApiKey = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    prefix: z.string(),
    key: z.string(),
    status: z.literal('active'),
    allowed_ips: allowedIpsOut,
    workspace_id: z.string(),
    created_by: z.string().nullable().describe('The user who made it; null once their account is deleted.'),
    created_at: timestamp,
    expires_at: timestamp.nullable(),
  })
  .meta({ id: 'CreatedApiKey', description: 'A new API key: `key`, its plaintext (`lfk_…`), is in this answer only.' });

const EXPIRY_RANGE = `Must be between ${API_KEY_EXPIRY_SECONDS.min / 3600} hour and ${API_KEY_EXPIRY_SECONDS.max / 86_400} days from now.`;

export const apiKeyCreateInput = workspaceScoped
  .extend({
    name: text(TEXT_LIMITS.apiKeyName).optional(),
    description: description.optional(),
    /** ISO 8601 with a zone (`Z` or an offset); checked against the server's clock when the key is made. */
    expires_at: z.iso.datetime({ offset: true }).optional().describe(EXPIRY_RANGE),
    allowed_ips: allowedIpsInput.optional(),
  })
  .strict();

/** What an owner may change of a key, working or not: its name, description and allowlist (null clears each). */
export const apiKeyUpdateInput = workspaceScoped
  .extend({
    key_id: idParam,
    name: text(TEXT_LIMITS.apiKeyName).nullable().optional(),
    description: description.optional(),
    allowed_ips: allowedIpsInput.optional(),
  })
  .strict();
export const apiKeyListInput = workspaceScoped.extend(listInput.shape);
export const apiKeyRevokeInput = workspaceScoped.extend({ key_id: idParam });
export const apiKeyGetInput = workspaceScoped.extend({ key_id: idParam });

export const apiKeyRollInput = workspaceScoped
  .extend({
    key_id: idParam,
    /** How long the old key keeps working; 0 (the default) revokes it with the roll. The new key keeps its name, description and allowlist. */
    grace_seconds: z.number().int().min(0).max(API_KEY_ROLL_GRACE_SECONDS.max).default(0),
    expires_at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        `When the new key stops working. ${EXPIRY_RANGE} ` +
          'Unset: a key that expires is replaced by one with the same lifetime, counted from now; one that never expires, by one that never does.',
      ),
  })
  .strict();

export const apiKeyUsageInput = workspaceScoped.extend({
  key_id: idParam,
  days: queryInteger(1, API_KEY_USAGE_DAYS.max)
    .default(API_KEY_USAGE_DAYS.default)
    .describe(`How many UTC days, ending today: 1 to ${API_KEY_USAGE_DAYS.max} (${API_KEY_USAGE_DAYS.default} when not given).`),
});

export const apiKeyUsage = z
  .object({
    /** One entry per UTC day, oldest first, ending today; days without requests are 0. */
    data: z.array(
      z.object({
        date: z.iso.date(),
        requests: z.number().int().describe('Requests the key authenticated.'),
        refused: z
          .object(
            Object.fromEntries(API_KEY_REFUSAL_REASONS.map((reason) => [reason, z.number().int()])) as Record<
              (typeof API_KEY_REFUSAL_REASONS)[number],
              z.ZodNumber
            >,
          )
          .describe(
            'Requests that presented the key and were refused, by why: it was revoked, had expired, was rolled (its grace over) or reported leaked, ' +
              'or the address was not on its allowlist. The caller got the same 401 as for an unknown key.',
          ),
      }),
    ),
  })
  .meta({ id: 'ApiKeyUsage' });

export { EXPIRY_RANGE as API_KEY_EXPIRY_RANGE_MESSAGE };
