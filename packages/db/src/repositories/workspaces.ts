import type { IWorkspace } from '../entities/workspace.ts';
import { LockingRepository } from './locking-repository.ts';

export class WorkspaceRepository extends LockingRepository<IWorkspace> {
  /** Serialises changes to one workspace's members and keys across transactions and replicas. */
  async lock(workspaceId: string): Promise<void> {
    await this.findOneForUpdate({ id: workspaceId });
  }
}
