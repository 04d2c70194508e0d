/**
 * The authorization matrix's rows for members: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, t, workspaceMember, workspaceOwner } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/workspaces/:workspace_id/members',
    success: (res, { w }) => expect(res.json.data.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).toContainEqual([w.owner.userId, 'owner']),
    expect: workspaceMember(200),
  },
  {
    route: 'PATCH /v1/workspaces/:workspace_id/members/:user_id',
    // A fresh member of W to promote, never the shared member caller.
    prepare: async (w) => {
      const promoted = await t.signup();
      await t.addMember(w.ws, promoted.email, 'member');
      return { params: { user_id: promoted.userId }, body: { role: 'owner' }, ref: { userId: promoted.userId } };
    },
    success: (res, { prepared }) => expect(res.json).toMatchObject({ user_id: prepared.ref!.userId, role: 'owner' }),
    expect: workspaceOwner(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/leave',
    // The owner and member callers leave as a person of their own, added to W with their role for the
    // cell: the shared ones stay in W.
    prepare: async (w, caller) => {
      if (caller !== 'owner_session' && caller !== 'member_session') return {};
      const leaving = await t.signup();
      await t.addMember(w.ws, leaving.email, caller === 'owner_session' ? 'owner' : 'member');
      return { token: leaving.token };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceMember(204),
  },
  {
    route: 'DELETE /v1/workspaces/:workspace_id/members/:user_id',
    // A fresh member of W to remove, never the shared member caller.
    prepare: async (w) => {
      const leaving = await t.signup();
      await t.addMember(w.ws, leaving.email, 'member');
      return { params: { user_id: leaving.userId }, ref: { userId: leaving.userId } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
];
