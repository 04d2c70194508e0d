import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '../constants.ts';
import { ApiKeyRepository } from '../repositories/api-keys.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';
import { Workspace } from './workspace.ts';

/**
 * A workspace API key. Only the sha256 of the key and its display prefix are kept; revocation
 * is soft (`revokedAt`), so the record stays for audit and is still listed.
 */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  extends: BaseEntity,
  repository: () => ApiKeyRepository,
  properties: {
    workspace: () => p.manyToOne(Workspace),
    name: p.string().length(TEXT_LIMITS.apiKeyName).nullable(),
    prefix: p.string().length(16),
    keyHash: p.string().length(64).unique(),
    createdBy: () => p.manyToOne(User),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    revokedBy: () => p.manyToOne(User).nullable(),
  },
  indexes: [{ properties: ['workspace', 'id'] }],
});
export type IApiKey = InferEntity<typeof ApiKey>;
