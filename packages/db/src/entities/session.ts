import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
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
    user: () => p.manyToOne(User).deleteRule('cascade'),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    /** When its person last proved who they are (sign-up, sign-in, reauthentication): sudo mode reads it. */
    authenticatedAt: p.datetime(),
    /** When the session was last used, and from where (what its person sees in their list of sessions); written at most every few minutes. */
    lastSeenAt: p.datetime().nullable(),
    ip: p.string().length(TEXT_LIMITS.ipAddress).nullable(),
    userAgent: p.string().length(TEXT_LIMITS.userAgent).nullable(),
  },
  indexes: [{ properties: ['user', 'id'] }],
});
export type ISession = InferEntity<typeof Session>;
