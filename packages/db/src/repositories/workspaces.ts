import type { IWorkspace } from '../entities/workspace.ts';
import { BaseRepository } from './base-repository.ts';

export class WorkspaceRepository extends BaseRepository<IWorkspace> {
  /**
   * Serialises changes to one workspace's members and keys across transactions and replicas.
   * Answers the locked row, or null when the workspace is gone (deleted meanwhile).
   */
  lock(workspaceId: string) {
    return this.findOneForUpdate({ id: workspaceId });
  }

  /** The workspace's name, or null when it is gone: one column, no entity. */
  async nameOf(workspaceId: string): Promise<string | null> {
    const [row] = await this.em.execute<{ name: string }[]>('select name from workspaces where id = ?', [workspaceId]);
    return row?.name ?? null;
  }

  /**
   * Deletes the workspace with all it holds (its keys, forms and their submissions, projects,
   * members, invitations: on delete cascade; then its audit log, which has no foreign key). Answers
   * the hashes its keys had and its forms' ids, for this process's key and form caches; other
   * replicas hear of each key's and form's deletion from the database.
   */
  async deleteNow(workspaceId: string): Promise<{ keyHashes: string[]; formIds: string[] }> {
    const keys = await this.em.execute<{ key_hash: string }[]>('select key_hash from api_keys where workspace_id = ?', [workspaceId]);
    const forms = await this.em.execute<{ id: string }[]>('select id from forms where workspace_id = ?', [workspaceId]);
    await this.em.execute('delete from workspaces where id = ?', [workspaceId]);
    // After the cascade, which waited for every write holding a row of the workspace: their events are in.
    await this.em.execute('delete from audit_events where workspace_id = ?', [workspaceId]);
    return { keyHashes: keys.map((k) => k.key_hash), formIds: forms.map((f) => f.id) };
  }
}
