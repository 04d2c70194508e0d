import type { IWorkspace } from '../entities/workspace.ts';
import { BaseRepository } from './base-repository.ts';

export class WorkspaceRepository extends BaseRepository<IWorkspace> {
  /** Serialises changes to one workspace's members and keys across transactions and replicas. */
  async lock(workspaceId: string): Promise<void> {
    await this.findOneForUpdate({ id: workspaceId });
  }
}
