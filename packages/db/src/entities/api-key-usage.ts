import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ApiKey } from './api-key.ts';

/**
 * How many requests a key authenticated on one UTC day, and how many presented it and were
 * refused, by reason: part of the key's aggregate, written and read by `ApiKeyRepository`. Added
 * to in batches from memory, never once per request.
 */
export const ApiKeyUsage = defineEntity({
  name: 'ApiKeyUsage',
  tableName: 'api_key_usage',
  properties: {
    key: () => p.manyToOne(ApiKey).primary().deleteRule('cascade'),
    day: p.date().primary(),
    /** Accepted requests. */
    requests: p.integer().default(0),
    refusedRevoked: p.integer().default(0),
    refusedExpired: p.integer().default(0),
    refusedRolled: p.integer().default(0),
    refusedLeaked: p.integer().default(0),
    /** Presented from an address the key's allowlist does not name. */
    refusedAddress: p.integer().default(0),
  },
});
export type IApiKeyUsage = InferEntity<typeof ApiKeyUsage>;
