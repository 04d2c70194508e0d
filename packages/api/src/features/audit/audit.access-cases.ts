/**
 * The authorization matrix's rows for audit events: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, t, workspaceOwner } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/workspaces/:workspace_id/audit-events',
    // An event of its own, so that it is on the first page however many the other cells wrote.
    prepare: async (w) => {
      const made = await t.request('POST', `/v1/workspaces/${w.ws}/projects`, { token: w.owner.token, body: { name: 'Audited' } });
      return { ref: { projectId: made.json.id } };
    },
    success: (res, { prepared }) =>
      expect(res.json.data).toContainEqual(expect.objectContaining({ action: 'project.created', target: { type: 'project', id: prepared.ref!.projectId } })),
    expect: workspaceOwner(200),
  },
];
