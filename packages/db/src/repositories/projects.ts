import { BaseRepository } from './base-repository.ts';
import type { IProject } from '../entities/project.ts';
import { isId, newId } from '../ids.ts';

export class ProjectRepository extends BaseRepository<IProject> {
  /** Queues a project; every workspace has exactly one default, made with it. */
  add(workspaceId: string, name: string, isDefault = false): IProject {
    return this.create({ id: newId('prj'), workspace: workspaceId, name, isDefault });
  }

  defaultOf(workspaceId: string): Promise<IProject> {
    return this.findOneOrFail({ workspace: workspaceId, isDefault: true });
  }

  /** The project with this id if it belongs to the workspace; null otherwise, a malformed id included. */
  async findInWorkspace(projectId: string, workspaceId: string): Promise<IProject | null> {
    return isId('prj', projectId) ? this.findOne({ id: projectId, workspace: workspaceId }) : null;
  }
}
