import { Membership, newId, Project, Workspace } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Actor } from '../trpc.ts';
import { recordAudit } from './audit.ts';

/** A workspace with its first owner and its default project, queued on `em` for one flush. */
export function createWorkspace(em: EntityManager, ownerId: string, name: string, actor: Actor) {
  const workspace = em.create(Workspace, { id: newId('ws'), name });
  em.create(Membership, { id: newId('mbr'), workspace, user: ownerId, role: 'owner' });
  em.create(Project, { id: newId('prj'), workspace, name: 'Default', isDefault: true });
  recordAudit(em, { workspaceId: workspace.id, action: 'workspace.created', actor, target: { type: 'workspace', id: workspace.id } });
  return workspace;
}

/** Serialises changes to one workspace's members and keys across transactions and server replicas. */
export async function lockWorkspace(em: EntityManager, workspaceId: string): Promise<void> {
  await em.execute('select id from workspaces where id = ? for update', [workspaceId]);
}
