import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ROLES } from '@lfk/vocabulary';
import { MembershipRepository } from '../repositories/memberships.ts';
import { BaseEntity } from './base.ts';
import { User } from './user.ts';
import { Workspace } from './workspace.ts';

export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  extends: BaseEntity,
  repository: () => MembershipRepository,
  properties: {
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    role: p.enum(ROLES),
  },
  uniques: [{ properties: ['workspace', 'user'] }],
  indexes: [{ properties: ['user'] }],
});
export type IMembership = InferEntity<typeof Membership>;
