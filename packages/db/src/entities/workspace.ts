import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TEXT_LIMITS } from '@lfk/vocabulary';
import { WorkspaceRepository } from '../repositories/workspaces.ts';
import { UpdatableEntity } from './base.ts';

export const Workspace = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  extends: UpdatableEntity,
  repository: () => WorkspaceRepository,
  properties: {
    name: p.string().length(TEXT_LIMITS.workspaceName),
    /** How long the signed download links of its submissions' files live, in seconds (null: the server's `LFK_FILE_LINK_TTL`). */
    fileLinkTtl: p.integer().nullable(),
    /** Its members' sessions reach it only once their account has a second factor (keys are not people: unaffected). */
    requireTwoFactor: p.boolean().default(false),
  },
  // A minute to 30 days, or none (the server's). Written as PostgreSQL prints it back, so comparing
  // the entities with a migrated database finds no difference.
  checks: [{ name: 'workspaces_file_link_ttl_check', expression: '((file_link_ttl IS NULL) OR ((file_link_ttl >= 60) AND (file_link_ttl <= 2592000)))' }],
});
export type IWorkspace = InferEntity<typeof Workspace>;
