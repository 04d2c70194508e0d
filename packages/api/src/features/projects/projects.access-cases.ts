/**
 * The authorization matrix's rows for projects: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, workspaceMember, workspaceOwner } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/workspaces/:workspace_id/projects',
    success: (res, { w }) => expect(res.json.data).toContainEqual(expect.objectContaining({ workspace_id: w.ws, is_default: true })),
    expect: workspaceMember(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/projects',
    prepare: async () => ({ body: { name: 'Marketing' } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ workspace_id: w.ws, name: 'Marketing', is_default: false }),
    expect: workspaceOwner(201),
  },
];
