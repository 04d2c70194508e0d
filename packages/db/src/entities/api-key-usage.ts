import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ApiKey } from './api-key.ts';

/**
 * How many requests a key authenticated on one UTC day: part of the key's aggregate, written and
 * read by `ApiKeyRepository`. Added to in batches from memory, never once per request.
 */
export const ApiKeyUsage = defineEntity({
  name: 'ApiKeyUsage',
  tableName: 'api_key_usage',
  properties: {
    key: () => p.manyToOne(ApiKey).primary().deleteRule('cascade'),
    day: p.date().primary(),
    requests: p.integer(),
  },
});
export type IApiKeyUsage = InferEntity<typeof ApiKeyUsage>;
