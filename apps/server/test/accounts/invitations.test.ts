/**
 * Invitations: owners invite an address with a role; the person reading that address's mail joins
 * by accepting the link (`lfi_…`, 7 days), signed in or signed up with it. No answer tells whether
 * an address has an account; the link works once, for its address only.
 */
import { emailsSentTo, expectError, linkTokenSentTo, PASSWORD, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { DAY, testClock } from '../keys/fixtures.ts';

const clock = testClock();
const t = useTestServer({}, { config: { now: clock.now } });

const invite = (token: string, ws: string, email: string, role = 'member') =>
  t.request('POST', `/v1/workspaces/${ws}/invitations`, { token, body: { email, role } });
const accept = (session: string, token: string) => t.request('POST', `/v1/invitations/${token}/accept`, { token: session });
const members = async (ws: string, token: string) =>
  (await t.request('GET', `/v1/workspaces/${ws}/members`, { token })).json.data.map((m: { email: string; role: string }) => [m.email, m.role]);

describe('inviting', () => {
  it('answers the same for an address with an account, without one, and of a member; each is emailed a link', async () => {
    const owner = await t.signup();
    const withAccount = await t.signup();
    const without = `newcomer-${Date.now()}@example.com`;
    const answers = [await invite(owner.token, owner.workspaceId, withAccount.email), await invite(owner.token, owner.workspaceId, without), await invite(owner.token, owner.workspaceId, owner.email)];
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    const shapes = answers.map(({ json }) => Object.keys(json).sort().join());
    expect(new Set(shapes).size).toBe(1);
    expect(answers[1]!.json).toMatchObject({ workspace_id: owner.workspaceId, email: without, role: 'member', invited_by: owner.userId });
    for (const address of [withAccount.email, without, owner.email]) await linkTokenSentTo(t, address, 'invitation');
    const email = emailsSentTo(t, without, 'invitation')[0]!;
    expect(email.text).toContain('http://lfk.test/invitations/lfi_');
    // Nobody joined: an invitation is not a membership.
    expect(await members(owner.workspaceId, owner.token)).toEqual([[owner.email, 'owner']]);
    const listed = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token });
    expect(listed.json.data.map((i: { email: string }) => i.email).sort()).toEqual([withAccount.email, without, owner.email].sort());
  });

  it('inviting an address again replaces its invitation: the new role, a new link, the old link dead', async () => {
    const owner = await t.signup();
    const invitee = await t.signup();
    const first = await invite(owner.token, owner.workspaceId, invitee.email);
    const oldLink = await linkTokenSentTo(t, invitee.email, 'invitation');
    const second = await invite(owner.token, owner.workspaceId, invitee.email, 'owner');
    expect(second.json).toMatchObject({ id: first.json.id, role: 'owner' });
    const newLink = await linkTokenSentTo(t, invitee.email, 'invitation', 2);
    expectError(await accept(invitee.token, oldLink), 404, 'invitation_not_found');
    expect((await accept(invitee.token, newLink)).json).toMatchObject({ workspace: { id: owner.workspaceId, role: 'owner' }, role: 'owner' });
  });

  it('is for owners: a member is told owner_required, a key session_required', async () => {
    const { owner, member } = await t.signupTeam();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    expectError(await invite(member.token, owner.workspaceId, 'x@example.com'), 403, 'owner_required');
    expectError(await invite(key, owner.workspaceId, 'x@example.com'), 403, 'session_required');
    // Members may see who is invited, as they see who is a member.
    expect((await t.request('GET', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: member.token })).status).toBe(200);
  });
});

describe('accepting', () => {
  it('a person without an account signs up with the address, accepts, and is a member with the role; the link is spent', async () => {
    const owner = await t.signup();
    const address = `colleague-${Date.now()}@example.com`;
    await invite(owner.token, owner.workspaceId, address);
    const token = await linkTokenSentTo(t, address, 'invitation');
    const preview = await t.request('GET', `/v1/invitations/${token}`);
    expect(preview.json).toMatchObject({ workspace: { id: owner.workspaceId }, email: address, role: 'member', invited_by: { email: owner.email } });
    const signup = await t.request('POST', '/v1/auth/signup', { body: { email: address, password: PASSWORD } });
    const joined = await accept(signup.json.session_token, token);
    expect(joined.status, joined.body).toBe(200);
    expect(joined.json).toMatchObject({ workspace: { id: owner.workspaceId, role: 'member' }, role: 'member' });
    expect(await members(owner.workspaceId, owner.token)).toContainEqual([address, 'member']);
    // Accepting proves the address reads its mail.
    expect((await t.request('GET', '/v1/auth/session', { token: signup.json.session_token })).json.user.email_verified).toBe(true);
    expect((await t.request('GET', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token })).json.data).toEqual([]);
    expectError(await accept(signup.json.session_token, token), 404, 'invitation_not_found');
    expectError(await t.request('GET', `/v1/invitations/${token}`), 404, 'invitation_not_found');
    const events = (await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token })).json.data;
    expect(events.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['invitation.created', 'member.added']));
  });

  it('signed in with another address: refused with a clear message, and the invitation still stands', async () => {
    const owner = await t.signup();
    const invitee = await t.signup();
    const someoneElse = await t.signup();
    await invite(owner.token, owner.workspaceId, invitee.email);
    const token = await linkTokenSentTo(t, invitee.email, 'invitation');
    const refused = expectError(await accept(someoneElse.token, token), 403, 'invitation_for_another_address');
    expect(refused.message).toContain(`you are signed in as ${someoneElse.email}`);
    expect(refused.message).not.toContain(invitee.email);
    expect((await accept(invitee.token, token)).status).toBe(200);
  });

  it('unknown, malformed, cancelled and expired links are the same 404; a key or nobody cannot accept', async () => {
    const owner = await t.signup();
    const invitee = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    for (const token of [`lfi_${'A'.repeat(43)}`, 'lfi_short', 'nope', invitee.token]) {
      expectError(await accept(invitee.token, encodeURIComponent(token)), 404, 'invitation_not_found');
      expectError(await t.request('GET', `/v1/invitations/${encodeURIComponent(token)}`), 404, 'invitation_not_found');
    }
    const created = await invite(owner.token, owner.workspaceId, invitee.email);
    const token = await linkTokenSentTo(t, invitee.email, 'invitation');
    expectError(await t.request('POST', `/v1/invitations/${token}/accept`), 401, 'unauthenticated');
    expectError(await t.request('POST', `/v1/invitations/${token}/accept`, { token: key }), 403, 'session_required');
    expect((await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/invitations/${created.json.id}`, { token: owner.token })).status).toBe(204);
    expectError(await accept(invitee.token, token), 404, 'invitation_not_found');
    expectError(await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/invitations/${created.json.id}`, { token: owner.token }), 404, 'invitation_not_found');

    await invite(owner.token, owner.workspaceId, invitee.email);
    const later = await linkTokenSentTo(t, invitee.email, 'invitation', 2);
    clock.advance(7 * DAY);
    try {
      expectError(await accept(invitee.token, later), 404, 'invitation_not_found');
    } finally {
      clock.advance(-7 * DAY);
    }
    expect(await members(owner.workspaceId, owner.token)).toEqual([[owner.email, 'owner']]);
  });

  it('a resent invitation has a new link good for 7 more days; the old one is dead', async () => {
    const owner = await t.signup();
    const invitee = await t.signup();
    const created = await invite(owner.token, owner.workspaceId, invitee.email);
    const oldLink = await linkTokenSentTo(t, invitee.email, 'invitation');
    clock.advance(6 * DAY);
    try {
      const resent = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations/${created.json.id}/resend`, { token: owner.token });
      expect(resent.status).toBe(202);
      expect(new Date(resent.json.expires_at).getTime()).toBe(clock.now().getTime() + 7 * DAY);
      const newLink = await linkTokenSentTo(t, invitee.email, 'invitation', 2);
      expectError(await accept(invitee.token, oldLink), 404, 'invitation_not_found');
      clock.advance(3 * DAY);
      expect((await accept(invitee.token, newLink)).status).toBe(200);
    } finally {
      clock.advance(-9 * DAY);
    }
  });

  it('an existing member who accepts keeps their role', async () => {
    const { owner, member } = await t.signupTeam();
    await invite(owner.token, owner.workspaceId, member.email, 'owner');
    const token = await linkTokenSentTo(t, member.email, 'invitation');
    expect((await accept(member.token, token)).json.role).toBe('member');
  });

  it('two acceptances of one link at once: one 200, the other 404, one membership', async () => {
    const owner = await t.signup();
    const invitee = await t.signup();
    await invite(owner.token, owner.workspaceId, invitee.email);
    const token = await linkTokenSentTo(t, invitee.email, 'invitation');
    const answers = await Promise.all(Array.from({ length: 6 }, () => accept(invitee.token, token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    for (const lost of answers.filter((a) => a.status === 404)) expect(lost.json.error.code).toBe('invitation_not_found');
    expect(await t.count('memberships where workspace_id = ? and user_id = ?', [owner.workspaceId, invitee.userId])).toBe(1);
  });
});

describe("an invitation is only as good as its sender's standing", () => {
  /** A second owner O2 of O's workspace invites a fresh address as an owner; the invitee signs up with it. */
  async function pendingFromSecondOwner() {
    const owner = await t.signup();
    const second = await t.signup();
    await t.addMember(owner.workspaceId, second.email, 'owner');
    const address = `invitee-${Math.random().toString(36).slice(2)}@example.com`;
    const sent = await invite(second.token, owner.workspaceId, address, 'owner');
    expect(sent.status).toBe(202);
    const link = await linkTokenSentTo(t, address, 'invitation');
    const invitee = await t.signup(address);
    return { owner, second, invitee, link, invitationId: sent.json.id as string };
  }

  const LOSING_STANDING = {
    removed: (owner: { token: string; workspaceId: string }, second: { token: string; userId: string }) =>
      t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/members/${second.userId}`, { token: owner.token }),
    'made a member': (owner: { token: string; workspaceId: string }, second: { token: string; userId: string }) =>
      t.request('PATCH', `/v1/workspaces/${owner.workspaceId}/members/${second.userId}`, { token: owner.token, body: { role: 'member' } }),
    'leaves the workspace': (owner: { token: string; workspaceId: string }, second: { token: string; userId: string }) =>
      t.request('POST', `/v1/workspaces/${owner.workspaceId}/leave`, { token: second.token }),
    'deletes their account': (_owner: { token: string; workspaceId: string }, second: { token: string; userId: string }) =>
      t.request('DELETE', '/v1/auth/account', { token: second.token, body: { password: PASSWORD } }),
  };

  for (const [how, loseStanding] of Object.entries(LOSING_STANDING)) {
    it(`once its sender ${how}, the invitation is cancelled: its link joins nobody`, async () => {
      const { owner, second, invitee, link, invitationId } = await pendingFromSecondOwner();
      expect([200, 204]).toContain((await loseStanding(owner, second)).status);
      expectError(await accept(invitee.token, link), 404, 'invitation_not_found');
      expectError(await t.request('GET', `/v1/invitations/${link}`), 404, 'invitation_not_found');
      expect(await t.count('memberships where workspace_id = ? and user_id = ?', [owner.workspaceId, invitee.userId])).toBe(0);
      // The owners' list shows only invitations that can still be accepted; the log says why this one ended.
      expect((await t.request('GET', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token })).json.data).toEqual([]);
      const events = (await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token })).json.data;
      expect(events).toContainEqual(
        expect.objectContaining({ action: 'invitation.cancelled', target: { type: 'invitation', id: invitationId }, data: { email: invitee.email, reason: 'inviter_not_owner' } }),
      );
    });
  }

  it('is judged at acceptance: an invitation left pending by a sender who is no longer an owner is refused, and still stands for a resend', async () => {
    const { owner, second, invitee, link, invitationId } = await pendingFromSecondOwner();
    // As a sender removed before invitations were cancelled with their sender's standing.
    await t.sql('delete from memberships where workspace_id = ? and user_id = ?', [owner.workspaceId, second.userId]);
    const refused = expectError(await accept(invitee.token, link), 404, 'invitation_not_found');
    expect(refused.message).toContain('whoever sent it can no longer invite to this workspace');
    expect(await t.count('memberships where workspace_id = ? and user_id = ?', [owner.workspaceId, invitee.userId])).toBe(0);
    // An owner who resends it vouches for it from now on.
    const resent = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations/${invitationId}/resend`, { token: owner.token });
    expect(resent.json.invited_by).toBe(owner.userId);
    const fresh = await linkTokenSentTo(t, invitee.email, 'invitation', 2);
    expect((await accept(invitee.token, fresh)).json).toMatchObject({ role: 'owner' });
  });

  it("an invitation another owner resent is theirs: it outlives the first sender's removal", async () => {
    const { owner, second, invitee, invitationId } = await pendingFromSecondOwner();
    expect((await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations/${invitationId}/resend`, { token: owner.token })).status).toBe(202);
    const link = await linkTokenSentTo(t, invitee.email, 'invitation', 2);
    expect((await LOSING_STANDING.removed(owner, second)).status).toBe(204);
    expect((await accept(invitee.token, link)).json).toMatchObject({ workspace: { id: owner.workspaceId }, role: 'owner' });
  });

  it('an invitation sent by an owner whose address is not confirmed is refused at acceptance', async () => {
    const { owner, second, invitee, link } = await pendingFromSecondOwner();
    // An account from before confirmation was needed to invite, which never confirmed its address.
    await t.sql('update users set email_verified_at = null where id = ?', [second.userId]);
    expectError(await accept(invitee.token, link), 404, 'invitation_not_found');
    expect(await t.count('memberships where workspace_id = ? and user_id = ?', [owner.workspaceId, invitee.userId])).toBe(0);
  });
});

describe('limits', () => {
  it('a workspace holds at most 100 pending invitations; inviting an address again still works then', async () => {
    const owner = await t.signup();
    const seeded = Array.from({ length: 100 }, (_, i) => `many-${i}@example.com`);
    for (const email of seeded) {
      await t.sql(
        "insert into invitations (id, workspace_id, email, role, token_hash, invited_by_id, expires_at, sent_at, created_at) values (?, ?, ?, 'member', ?, null, now() + interval '7 days', now(), now())",
        [`inv_${String(seeded.indexOf(email)).padStart(26, '0')}`, owner.workspaceId, email, email.padEnd(64, 'x')],
      );
    }
    expectError(await invite(owner.token, owner.workspaceId, 'one-more@example.com'), 409, 'invitation_limit_reached');
    expect((await invite(owner.token, owner.workspaceId, seeded[0]!)).status).toBe(202);
    // An expired invitation takes no room.
    await t.sql("update invitations set expires_at = now() - interval '1 minute' where email = ?", [seeded[1]]);
    expect((await invite(owner.token, owner.workspaceId, 'one-more@example.com')).status).toBe(202);
  });
});
