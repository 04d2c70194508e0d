import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const Workspace = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  properties: {
    id: p.string().primary().length(40),
    name: p.string().length(100),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type IWorkspace = InferEntity<typeof Workspace>;
