/**
 * Invitations: owners invite an address with a role; the person reading that address's mail joins
 * by accepting the link (`lfi_…`, 7 days), signed in or signed up with it. No answer tells whether
 * an address has an account; the link works once, for its address only. The routes and their
 * 202/200/204 are the REST table's; the link is read from the outbox, as the sender would send it.
 */
import { DAY, ENGINE, testClock } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { seedMembership, TEST_PASSWORD } from '../../testing.ts';
import { count, sql } from '../../../test/support/database.ts';
import { emailsTo, linkTokenTo } from '../../../test/support/emails.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { team } from '../../../test/support/team.ts';
import { callerFor, type Person, person, testServices } from '../../../test/world.ts';

const clock = testClock();
let services: Services;
beforeAll(async () => {
  services = await testServices({ now: clock.now });
});

const as = (token?: string) => callerFor(services, token);
const invite = async (token: string, ws: string, email: string, role: 'member' | 'owner' = 'member') =>
  (await as(token)).invitations.create({ workspace_id: ws, email, role });
const accept = async (session: string | undefined, token: string) => (await as(session)).invitations.accept({ token });
const show = async (token: string) => (await as()).invitations.show({ token });
const resend = async (token: string, ws: string, invitationId: string) =>
  (await as(token)).invitations.resend({ workspace_id: ws, invitation_id: invitationId });
const pending = async (token: string, ws: string) => (await (await as(token)).invitations.list({ workspace_id: ws })).data;
const members = async (ws: string, token: string) => (await (await as(token)).members.list({ workspace_id: ws })).data.map((m) => [m.email, m.role]);
const auditEvents = async (token: string, ws: string) => (await (await as(token)).auditEvents.list({ workspace_id: ws })).data;
const membershipsOf = (ws: string, userId: string) => count(services, 'memberships where workspace_id = ? and user_id = ?', [ws, userId]);

describe(`inviting (${ENGINE})`, () => {
  it('answers the same for an address with an account, without one, and of a member; each is emailed a link', async () => {
    const owner = await person(services);
    const withAccount = await person(services);
    const without = `newcomer-${Date.now()}@example.com`;
    const answers = [
      await invite(owner.token, owner.workspaceId, withAccount.email),
      await invite(owner.token, owner.workspaceId, without),
      await invite(owner.token, owner.workspaceId, owner.email),
    ];
    const shapes = answers.map((answer) => Object.keys(answer).sort().join());
    expect(new Set(shapes).size).toBe(1);
    expect(answers[1]).toMatchObject({ workspace_id: owner.workspaceId, email: without, role: 'member', invited_by: owner.userId });
    for (const address of [withAccount.email, without, owner.email]) await linkTokenTo(services, address, 'invitation');
    const email = (await emailsTo(services, without, 'invitation'))[0]!;
    expect(email.text).toContain('http://lfk.test/invitations/lfi_');
    // Nobody joined: an invitation is not a membership.
    expect(await members(owner.workspaceId, owner.token)).toEqual([[owner.email, 'owner']]);
    const listed = await pending(owner.token, owner.workspaceId);
    expect(listed.map((i) => i.email).sort()).toEqual([withAccount.email, without, owner.email].sort());
  });

  it('inviting an address again replaces its invitation: the new role, a new link, the old link dead', async () => {
    const owner = await person(services);
    const invitee = await person(services);
    const first = await invite(owner.token, owner.workspaceId, invitee.email);
    const oldLink = await linkTokenTo(services, invitee.email, 'invitation');
    const second = await invite(owner.token, owner.workspaceId, invitee.email, 'owner');
    expect(second).toMatchObject({ id: first.id, role: 'owner' });
    const newLink = await linkTokenTo(services, invitee.email, 'invitation', 2);
    await expectRefused(accept(invitee.token, oldLink), 404, 'invitation_not_found');
    expect(await accept(invitee.token, newLink)).toMatchObject({ workspace: { id: owner.workspaceId, role: 'owner' }, role: 'owner' });
  });

  it('is for owners: a member is told owner_required, a key session_required', async () => {
    const { owner, member } = await team(services);
    const { key } = await createKey(services, owner);
    await expectRefused(invite(member.token, owner.workspaceId, 'x@example.com'), 403, 'owner_required');
    await expectRefused(invite(key, owner.workspaceId, 'x@example.com'), 403, 'session_required');
    // Members may see who is invited, as they see who is a member.
    expect(await pending(member.token, owner.workspaceId)).toEqual([]);
  });
});

describe(`accepting (${ENGINE})`, () => {
  it('a person without an account signs up with the address, accepts, and is a member with the role; the link is spent', async () => {
    const owner = await person(services);
    const address = `colleague-${Date.now()}@example.com`;
    await invite(owner.token, owner.workspaceId, address);
    const token = await linkTokenTo(services, address, 'invitation');
    expect(await show(token)).toMatchObject({ workspace: { id: owner.workspaceId }, email: address, role: 'member', invited_by: { email: owner.email } });
    const signup = await (await as()).auth.signup({ email: address, password: TEST_PASSWORD });
    const joined = await accept(signup.session_token, token);
    expect(joined).toMatchObject({ workspace: { id: owner.workspaceId, role: 'member' }, role: 'member' });
    expect(await members(owner.workspaceId, owner.token)).toContainEqual([address, 'member']);
    // Accepting proves the address reads its mail.
    expect((await (await as(signup.session_token)).auth.session()).user.email_verified).toBe(true);
    expect(await pending(owner.token, owner.workspaceId)).toEqual([]);
    await expectRefused(accept(signup.session_token, token), 404, 'invitation_not_found');
    await expectRefused(show(token), 404, 'invitation_not_found');
    const events = await auditEvents(owner.token, owner.workspaceId);
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['invitation.created', 'member.added']));
  });

  it('signed in with another address: refused with a clear message, and the invitation still stands', async () => {
    const owner = await person(services);
    const invitee = await person(services);
    const someoneElse = await person(services);
    await invite(owner.token, owner.workspaceId, invitee.email);
    const token = await linkTokenTo(services, invitee.email, 'invitation');
    const refused = await expectRefused(accept(someoneElse.token, token), 403, 'invitation_for_another_address');
    expect(refused.message).toContain(`you are signed in as ${someoneElse.email}`);
    expect(refused.message).not.toContain(invitee.email);
    expect(await accept(invitee.token, token)).toMatchObject({ workspace: { id: owner.workspaceId } });
  });

  it('unknown, malformed, cancelled and expired links are the same 404; a key or nobody cannot accept', async () => {
    const owner = await person(services);
    const invitee = await person(services);
    const { key } = await createKey(services, owner);
    for (const token of [`lfi_${'A'.repeat(43)}`, 'lfi_short', 'nope', invitee.token]) {
      await expectRefused(accept(invitee.token, token), 404, 'invitation_not_found', { what: token });
      await expectRefused(show(token), 404, 'invitation_not_found', { what: token });
    }
    const created = await invite(owner.token, owner.workspaceId, invitee.email);
    const token = await linkTokenTo(services, invitee.email, 'invitation');
    await expectRefused(accept(undefined, token), 401, 'unauthenticated');
    await expectRefused(accept(key, token), 403, 'session_required');
    const cancel = async () => (await as(owner.token)).invitations.cancel({ workspace_id: owner.workspaceId, invitation_id: created.id });
    await cancel();
    await expectRefused(accept(invitee.token, token), 404, 'invitation_not_found');
    await expectRefused(cancel(), 404, 'invitation_not_found');

    await invite(owner.token, owner.workspaceId, invitee.email);
    const later = await linkTokenTo(services, invitee.email, 'invitation', 2);
    clock.advance(7 * DAY);
    try {
      await expectRefused(accept(invitee.token, later), 404, 'invitation_not_found');
    } finally {
      clock.advance(-7 * DAY);
    }
    expect(await members(owner.workspaceId, owner.token)).toEqual([[owner.email, 'owner']]);
  });

  it('a resent invitation has a new link good for 7 more days; the old one is dead', async () => {
    const owner = await person(services);
    const invitee = await person(services);
    const created = await invite(owner.token, owner.workspaceId, invitee.email);
    const oldLink = await linkTokenTo(services, invitee.email, 'invitation');
    clock.advance(6 * DAY);
    try {
      const resent = await resend(owner.token, owner.workspaceId, created.id);
      expect(new Date(resent.expires_at).getTime()).toBe(clock.now().getTime() + 7 * DAY);
      const newLink = await linkTokenTo(services, invitee.email, 'invitation', 2);
      await expectRefused(accept(invitee.token, oldLink), 404, 'invitation_not_found');
      clock.advance(3 * DAY);
      expect(await accept(invitee.token, newLink)).toMatchObject({ workspace: { id: owner.workspaceId } });
    } finally {
      clock.advance(-9 * DAY);
    }
  });

  it('an existing member who accepts keeps their role', async () => {
    const { owner, member } = await team(services);
    await invite(owner.token, owner.workspaceId, member.email, 'owner');
    const token = await linkTokenTo(services, member.email, 'invitation');
    expect((await accept(member.token, token)).role).toBe('member');
  });

  it('two acceptances of one link at once: one accepted, the others 404, one membership', async () => {
    const owner = await person(services);
    const invitee = await person(services);
    await invite(owner.token, owner.workspaceId, invitee.email);
    const token = await linkTokenTo(services, invitee.email, 'invitation');
    const results = await Promise.all(Array.from({ length: 6 }, () => outcome(accept(invitee.token, token))));
    expect(results.sort()).toEqual([
      '404 invitation_not_found',
      '404 invitation_not_found',
      '404 invitation_not_found',
      '404 invitation_not_found',
      '404 invitation_not_found',
      'done',
    ]);
    expect(await membershipsOf(owner.workspaceId, invitee.userId)).toBe(1);
  });
});

describe(`an invitation is only as good as its sender's standing (${ENGINE})`, () => {
  /** A second owner O2 of O's workspace invites a fresh address as an owner; the invitee signs up with it. */
  async function pendingFromSecondOwner() {
    const owner = await person(services);
    const second = await person(services);
    await seedMembership(services.db, owner.workspaceId, second.email, 'owner');
    const address = `invitee-${Math.random().toString(36).slice(2)}@example.com`;
    const sent = await invite(second.token, owner.workspaceId, address, 'owner');
    const link = await linkTokenTo(services, address, 'invitation');
    const invitee = await person(services, address);
    return { owner, second, invitee, link, invitationId: sent.id };
  }

  const LOSING_STANDING: Record<string, (owner: Person, second: Person) => Promise<unknown>> = {
    removed: async (owner, second) => (await as(owner.token)).members.remove({ workspace_id: owner.workspaceId, user_id: second.userId }),
    'made a member': async (owner, second) =>
      (await as(owner.token)).members.setRole({ workspace_id: owner.workspaceId, user_id: second.userId, role: 'member' }),
    'leaves the workspace': async (owner, second) => (await as(second.token)).members.leave({ workspace_id: owner.workspaceId }),
    'deletes their account': async (_owner, second) => (await as(second.token)).auth.deleteAccount({ password: TEST_PASSWORD }),
  };

  for (const [how, loseStanding] of Object.entries(LOSING_STANDING)) {
    it(`once its sender ${how}, the invitation is cancelled: its link joins nobody`, async () => {
      const { owner, second, invitee, link, invitationId } = await pendingFromSecondOwner();
      await loseStanding(owner, second);
      await expectRefused(accept(invitee.token, link), 404, 'invitation_not_found');
      await expectRefused(show(link), 404, 'invitation_not_found');
      expect(await membershipsOf(owner.workspaceId, invitee.userId)).toBe(0);
      // The owners' list shows only invitations that can still be accepted; the log says why this one ended.
      expect(await pending(owner.token, owner.workspaceId)).toEqual([]);
      expect(await auditEvents(owner.token, owner.workspaceId)).toContainEqual(
        expect.objectContaining({
          action: 'invitation.cancelled',
          target: { type: 'invitation', id: invitationId },
          data: { email: invitee.email, reason: 'inviter_not_owner' },
        }),
      );
    });
  }

  it('is judged at acceptance: an invitation left pending by a sender who is no longer an owner is refused, and still stands for a resend', async () => {
    const { owner, second, invitee, link, invitationId } = await pendingFromSecondOwner();
    // As a sender removed before invitations were cancelled with their sender's standing.
    await sql(services, 'delete from memberships where workspace_id = ? and user_id = ?', [owner.workspaceId, second.userId]);
    const refused = await expectRefused(accept(invitee.token, link), 404, 'invitation_not_found');
    expect(refused.message).toContain('whoever sent it can no longer invite to this workspace');
    expect(await membershipsOf(owner.workspaceId, invitee.userId)).toBe(0);
    // An owner who resends it vouches for it from now on.
    const resent = await resend(owner.token, owner.workspaceId, invitationId);
    expect(resent.invited_by).toBe(owner.userId);
    const fresh = await linkTokenTo(services, invitee.email, 'invitation', 2);
    expect(await accept(invitee.token, fresh)).toMatchObject({ role: 'owner' });
  });

  it("an invitation another owner resent is theirs: it outlives the first sender's removal", async () => {
    const { owner, second, invitee, invitationId } = await pendingFromSecondOwner();
    await resend(owner.token, owner.workspaceId, invitationId);
    const link = await linkTokenTo(services, invitee.email, 'invitation', 2);
    await LOSING_STANDING.removed!(owner, second);
    expect(await accept(invitee.token, link)).toMatchObject({ workspace: { id: owner.workspaceId }, role: 'owner' });
  });

  it('an invitation sent by an owner whose address is not confirmed is refused at acceptance', async () => {
    const { owner, second, invitee, link } = await pendingFromSecondOwner();
    // An account from before confirmation was needed to invite, which never confirmed its address.
    await sql(services, 'update users set email_verified_at = null where id = ?', [second.userId]);
    await expectRefused(accept(invitee.token, link), 404, 'invitation_not_found');
    expect(await membershipsOf(owner.workspaceId, invitee.userId)).toBe(0);
  });
});

describe(`limits (${ENGINE})`, () => {
  it('a workspace holds at most 100 pending invitations; inviting an address again still works then', async () => {
    const owner = await person(services);
    const seeded = Array.from({ length: 100 }, (_, i) => `many-${i}@example.com`);
    for (const [i, email] of seeded.entries()) {
      await sql(
        services,
        'insert into invitations (id, workspace_id, email, role, token_hash, invited_by_id, expires_at, sent_at, created_at) values (?, ?, ?, ' +
          "'member', ?, null, now() + interval '7 days', now(), now())",
        [`inv_${String(i).padStart(26, '0')}`, owner.workspaceId, email, email.padEnd(64, 'x')],
      );
    }
    await expectRefused(invite(owner.token, owner.workspaceId, 'one-more@example.com'), 409, 'invitation_limit_reached');
    await invite(owner.token, owner.workspaceId, seeded[0]!);
    // An expired invitation takes no room.
    await sql(services, "update invitations set expires_at = now() - interval '1 minute' where email = ?", [seeded[1]]);
    await invite(owner.token, owner.workspaceId, 'one-more@example.com');
  });
});
