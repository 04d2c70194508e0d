import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ROLES } from '../constants.ts';
import { User } from './user.ts';
import { Workspace } from './workspace.ts';

export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  properties: {
    id: p.string().primary().length(40),
    workspace: () => p.manyToOne(Workspace),
    user: () => p.manyToOne(User),
    role: p.enum(ROLES),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['workspace', 'user'] }],
  indexes: [{ properties: ['user'] }],
});
export type IMembership = InferEntity<typeof Membership>;
