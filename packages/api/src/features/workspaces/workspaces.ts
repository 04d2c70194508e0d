import { AuditEvent, Membership, newId, Project, Workspace } from '@lfk/db';
import { cutToLength, TEXT_LIMITS } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../../trpc.ts';

const PERSONAL_SUFFIX = "'s workspace";

/**
 * The name of a new account's own workspace: "<name>'s workspace", the name cut (by whole
 * characters) so that the whole fits the workspace name's column.
 */
export function personalWorkspaceName(userName: string | undefined): string {
  if (!userName) return 'Personal';
  const room = TEXT_LIMITS.workspaceName - PERSONAL_SUFFIX.length;
  return `${cutToLength(userName, room).trimEnd()}${PERSONAL_SUFFIX}`;
}

/** A workspace with its first owner and its default project, queued on `em` for one flush. */
export function createWorkspace(em: EntityManager, ownerId: string, name: string, actor: Actor) {
  const workspace = em.create(Workspace, { id: newId('ws'), name });
  em.getRepository(Membership).add(workspace.id, ownerId, 'owner');
  em.getRepository(Project).add(workspace.id, 'Default', true);
  em.getRepository(AuditEvent).record({ workspaceId: workspace.id, action: 'workspace.created', actor, target: { type: 'workspace', id: workspace.id } });
  return workspace;
}
