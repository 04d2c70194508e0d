/**
 * The authorization matrix's rows for invitations: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { linkTokenSentTo } from '@lfk/testing';
import { expect } from 'vitest';
import {
  type AccessCase,
  anyone,
  freshEmail,
  type Prepared,
  sessionAccount,
  signedIn,
  t,
  workspaceMember,
  workspaceOwner,
  type World,
} from '../../test-tables/access.ts';

/** A pending invitation of its own into W, for a cell that resends, cancels or opens it. */
async function freshInvitation(w: World): Promise<Prepared> {
  const email = freshEmail();
  const res = await t.request('POST', `/v1/workspaces/${w.ws}/invitations`, { token: w.owner.token, body: { email, role: 'member' } });
  if (res.status !== 202) throw new Error(`invite failed: ${res.status} ${res.body}`);
  return { params: { invitation_id: res.json.id }, ref: { invitationId: res.json.id, email } };
}

/** How many invitations were emailed to `email` so far, the one just sent included (the shared callers are invited once per row). */
async function countInvitationsTo(email: string): Promise<number> {
  return t.count('outbox_emails where kind = \'invitation\' and "to" = ?', [email]);
}

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/workspaces/:workspace_id/invitations',
    prepare: async (w) => {
      await t.request('POST', `/v1/workspaces/${w.ws}/invitations`, { token: w.owner.token, body: { email: 'listed@example.com' } });
      return {};
    },
    success: (res) => expect(res.json.data.map((i: { email: string }) => i.email)).toContain('listed@example.com'),
    expect: workspaceMember(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/invitations',
    prepare: async () => {
      const email = freshEmail();
      return { body: { email, role: 'member' }, ref: { email } };
    },
    success: (res, { w, prepared }) => expect(res.json).toMatchObject({ workspace_id: w.ws, email: prepared.ref!.email, role: 'member' }),
    expect: workspaceOwner(202),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/invitations/:invitation_id/resend',
    prepare: freshInvitation,
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.invitationId }),
    expect: workspaceOwner(202),
  },
  {
    route: 'DELETE /v1/workspaces/:workspace_id/invitations/:invitation_id',
    prepare: freshInvitation,
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
  {
    route: 'GET /v1/invitations/:token',
    prepare: async (w) => {
      const invited = await freshInvitation(w);
      return { params: { token: await linkTokenSentTo(t, invited.ref!.email!, 'invitation') }, ref: invited.ref! };
    },
    success: (res, { w, prepared }) => expect(res.json).toMatchObject({ workspace: { id: w.ws }, email: prepared.ref!.email, role: 'member' }),
    expect: anyone(200),
  },
  {
    route: 'POST /v1/invitations/:token/accept',
    // Each session caller is invited by address into a workspace of a stranger's, so accepting changes nothing of W.
    prepare: async (w, caller) => {
      const host = await t.signup();
      const email = sessionAccount(w, caller)?.email ?? freshEmail();
      const res = await t.request('POST', `/v1/workspaces/${host.workspaceId}/invitations`, { token: host.token, body: { email } });
      if (res.status !== 202) throw new Error(`invite failed: ${res.status} ${res.body}`);
      return { params: { token: await linkTokenSentTo(t, email, 'invitation', await countInvitationsTo(email)) }, ref: { workspaceId: host.workspaceId } };
    },
    success: (res, { prepared }) => expect(res.json).toMatchObject({ workspace: { id: prepared.ref!.workspaceId }, role: 'member' }),
    expect: signedIn(200),
  },
];
