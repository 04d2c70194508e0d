import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '../constants.ts';
import { Workspace } from './workspace.ts';

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.string().primary().length(40),
    workspace: () => p.manyToOne(Workspace),
    name: p.string().length(TEXT_LIMITS.projectName),
    isDefault: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ properties: ['workspace', 'id'] }],
});
export type IProject = InferEntity<typeof Project>;
