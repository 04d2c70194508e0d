import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { API_KEY_REVOKED_REASONS, MAX_ALLOWED_IPS, TEXT_LIMITS } from '@lfk/vocabulary';
import { ApiKeyRepository } from '../repositories/api-keys.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';
import { Workspace } from './workspace.ts';

/**
 * A workspace API key. Only the sha256 of the key and its display prefix are kept; revocation
 * is soft (`revokedAt`, with `revokedReason`), so the record stays for audit and is still listed.
 * A key past `expiresAt` is refused at that instant, whether or not the sweep has yet written
 * its revocation; a rolled key points at its successor (`rolledTo`) and expires when its grace ends.
 */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  extends: BaseEntity,
  repository: () => ApiKeyRepository,
  properties: {
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    name: p.string().length(TEXT_LIMITS.apiKeyName).nullable(),
    description: p.string().length(TEXT_LIMITS.apiKeyDescription).nullable(),
    prefix: p.string().length(16),
    keyHash: p.string().length(64).unique(),
    /** Null once the account that made it is deleted: the key is the workspace's, and stays. */
    createdBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    revokedBy: () => p.manyToOne(User).nullable(),
    revokedReason: p.enum(API_KEY_REVOKED_REASONS).nullable(),
    expiresAt: p.datetime().nullable(),
    /** The key that replaced this one in a roll. */
    rolledTo: p.string().length(40).nullable(),
    lastUsedIp: p.string().length(TEXT_LIMITS.ipAddress).nullable(),
    lastUsedUserAgent: p.string().length(TEXT_LIMITS.userAgent).nullable(),
    /** The addresses and CIDR ranges it may be used from, normalised; null for anywhere. */
    allowedIps: p.json<string[]>().nullable(),
    /** The nearest expiry reminder (days ahead) already sent, or skipped because the key was made closer to its expiry. */
    expiryReminderDays: p.smallint().nullable(),
  },
  indexes: [{ properties: ['workspace', 'id'] }, { properties: ['expiresAt'] }],
  // An allowlist is 1 to 20 entries or none (null): an empty one written by hand allows nowhere
  // (see AddressAllowlist), and this keeps it from being written at all. Written as PostgreSQL
  // prints it back, so comparing the entities with a migrated database finds no difference.
  checks: [
    {
      name: 'api_keys_allowed_ips_check',
      expression:
        "CASE WHEN (allowed_ips IS NULL) THEN true WHEN (jsonb_typeof(allowed_ips) = 'array'::text) " +
        `THEN ((jsonb_array_length(allowed_ips) >= 1) AND (jsonb_array_length(allowed_ips) <= ${MAX_ALLOWED_IPS})) ELSE false END`,
    },
  ],
});
export type IApiKey = InferEntity<typeof ApiKey>;
