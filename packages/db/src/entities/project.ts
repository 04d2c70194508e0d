import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { ProjectRepository } from '../repositories/projects.ts';
import { BaseEntity } from './base.ts';
import { Workspace } from './workspace.ts';

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  extends: BaseEntity,
  repository: () => ProjectRepository,
  properties: {
    workspace: () => p.manyToOne(Workspace).deleteRule('cascade'),
    name: p.string().length(TEXT_LIMITS.projectName),
    isDefault: p.boolean().default(false),
  },
  indexes: [{ properties: ['workspace', 'id'] }],
});
export type IProject = InferEntity<typeof Project>;
