/**
 * The authorization matrix's rows for workspaces: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, signedIn, t, workspaceOwner } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/workspaces',
    success: (res, { w, caller }) => {
      const expected = { owner_session: [w.ws, 'owner'], member_session: [w.ws, 'member'], outsider_session: [w.outsider.workspaceId, 'owner'] }[
        caller as 'owner_session'
      ]!;
      expect(res.json.data.map((ws: { id: string; role: string }) => [ws.id, ws.role])).toContainEqual(expected);
      if (caller === 'outsider_session') expect(res.json.data.map((ws: { id: string }) => ws.id)).not.toContain(w.ws);
    },
    expect: signedIn(200),
  },
  {
    route: 'POST /v1/workspaces',
    prepare: async () => ({ body: { name: 'Side project' } }),
    success: (res) => expect(res.json).toMatchObject({ name: 'Side project', role: 'owner' }),
    expect: signedIn(201),
  },
  {
    route: 'PATCH /v1/workspaces/:workspace_id',
    prepare: async () => ({ body: { name: 'Workspace W' } }),
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
  {
    route: 'DELETE /v1/workspaces/:workspace_id',
    // A workspace of its own for each cell, W's owner its owner and W's member a member: W stays.
    prepare: async (w) => {
      const made = await t.request('POST', '/v1/workspaces', { token: w.owner.token, body: { name: 'Doomed' } });
      await t.addMember(made.json.id, w.member.email, 'member');
      return { params: { workspace_id: made.json.id }, body: { confirm: 'Doomed' }, ref: { workspaceId: made.json.id } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
];
