import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '../constants.ts';
import { WorkspaceRepository } from '../repositories/workspaces.ts';

export const Workspace = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  repository: () => WorkspaceRepository,
  properties: {
    id: p.string().primary().length(40),
    name: p.string().length(TEXT_LIMITS.workspaceName),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IWorkspace = InferEntity<typeof Workspace>;
