import { Form, type FormReading, type IForm, isId, Project, type StoredField } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { ApiError, invalidField } from '../../errors.ts';
import type { FormsScope } from '../../trpc.ts';
import { type FormCache, readForm } from './form-cache.ts';

/** A claimed form this caller may reach; anything else, unclaimed forms included, is "not found". */
async function reachable<T extends { workspace?: { id: string } | null }>(
  scope: FormsScope,
  formId: string,
  find: (formId: string) => Promise<T | null>,
): Promise<T> {
  if (!isId('form', formId)) throw new ApiError('form_not_found');
  const found = await find(formId);
  if (!found?.workspace || !(await scope.canReach(found.workspace.id))) throw new ApiError('form_not_found');
  return found;
}

/** A form found a moment ago and gone when locked (deleted meanwhile, with its workspace say) is not found, as a later request would find it. */
export const formGone = () => new ApiError('form_not_found');

/** The form as an entity, to change it. */
export const findReachableForm = (em: EntityManager, scope: FormsScope, formId: string): Promise<IForm> =>
  reachable(scope, formId, (id) => em.getRepository(Form).findClaimed(id));

/**
 * The form as a plain reading of its row, to answer it (see `readClaimed`): from the form cache
 * where it is exact (the embedded engine), else from the database, so that a replica never answers
 * a read from before a change another one made.
 */
export const readReachableForm = (formCache: FormCache, em: EntityManager, scope: FormsScope, formId: string): Promise<FormReading> =>
  reachable(scope, formId, async (id) => {
    if (!formCache.exact) return em.getRepository(Form).readClaimed(id);
    const form = await readForm(formCache, em, id);
    return form?.state === 'claimed' ? form : null;
  });

/** The project a form goes in: the one named (of the same workspace), else the default one. */
export async function resolveProject(em: EntityManager, workspaceId: string, projectId: string | undefined) {
  const projects = em.getRepository(Project);
  if (projectId === undefined) return projects.defaultOf(workspaceId);
  const project = await projects.findInWorkspace(projectId, workspaceId);
  if (!project) throw new ApiError('project_not_found');
  return project;
}

/**
 * A file field's `max_size` above what this server takes (`LFK_MAX_FILE_SIZE`) is refused where the
 * form is written, not silently lowered: the owner learns the real limit before a visitor meets it.
 */
export function assertFileLimits(schema: readonly StoredField[] | undefined, maxFileSize: number): void {
  schema?.forEach((field, index) => {
    if (field.type === 'file' && field.max_size !== undefined && field.max_size > maxFileSize) {
      throw invalidField(`schema.${index}.max_size`, `Must be at most ${maxFileSize} bytes: this server's largest file (LFK_MAX_FILE_SIZE).`);
    }
  });
}
