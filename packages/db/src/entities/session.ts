import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { SessionRepository } from '../repositories/sessions.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';

/** A signed-in session. Only the sha256 of its `lfs_` token is kept. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  extends: BaseEntity,
  repository: () => SessionRepository,
  properties: {
    user: () => p.manyToOne(User),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ISession = InferEntity<typeof Session>;
