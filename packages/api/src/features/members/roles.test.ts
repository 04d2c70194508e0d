/**
 * A member's role changed by an owner (`members.setRole`; the last owner stays one, races included)
 * and a member leaving (`members.leave`), on both engines. The routes and their 200/204 are the REST
 * table's.
 */
import { ENGINE } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { sql } from '../../../test/support/database.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { team } from '../../../test/support/team.ts';
import { TEST_PASSWORD } from '../../testing.ts';
import { callerFor, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

const setRole = async (token: string, workspaceId: string, userId: string, role: unknown) =>
  (await callerFor(services, token)).members.setRole({ workspace_id: workspaceId, user_id: userId, role } as never);
const leave = async (token: string, workspaceId: string) => (await callerFor(services, token)).members.leave({ workspace_id: workspaceId });
const roles = async (workspaceId: string) =>
  Object.fromEntries(
    (await sql<{ user_id: string; role: string }>(services, 'select user_id, role from memberships where workspace_id = ?', [workspaceId])).map((m) => [
      m.user_id,
      m.role,
    ]),
  );
/** The workspace's audit events of `action`, newest first, as `token` (an owner) lists them. */
const audited = async (token: string, workspaceId: string, action: string) =>
  (await (await callerFor(services, token)).auditEvents.list({ workspace_id: workspaceId })).data.filter((e) => e.action === action);

describe(`roles (${ENGINE})`, () => {
  it('an owner promotes and demotes; the last owner stays one; the audit log says from and to', async () => {
    const { owner, member, outsider } = await team(services);
    const ws = owner.workspaceId;
    const promoted = await setRole(owner.token, ws, member.userId, 'owner');
    expect(promoted).toMatchObject({ user_id: member.userId, email: member.email, role: 'owner' });
    // Now two owners: either may step down, but not both.
    expect((await setRole(member.token, ws, owner.userId, 'member')).role).toBe('member');
    await expectRefused(setRole(member.token, ws, member.userId, 'member'), 409, 'last_owner');
    expect(await roles(ws)).toEqual({ [owner.userId]: 'member', [member.userId]: 'owner' });
    // The same role again changes nothing and records nothing.
    expect((await setRole(member.token, ws, member.userId, 'owner')).role).toBe('owner');

    await expectRefused(setRole(owner.token, ws, member.userId, 'member'), 403, 'owner_required');
    await expectRefused(setRole(outsider.token, ws, member.userId, 'member'), 404, 'workspace_not_found');
    await expectRefused(setRole(member.token, ws, outsider.userId, 'owner'), 404, 'member_not_found');
    await expectRefused(setRole(member.token, ws, 'usr_nope', 'owner'), 404, 'member_not_found');
    for (const role of ['admin', '', null, 1])
      await expectRefused(setRole(member.token, ws, owner.userId, role), 400, 'invalid_request', { what: String(role) });
    const key = await createKey(services, { token: member.token, workspaceId: ws });
    await expectRefused(setRole(key.key, ws, owner.userId, 'owner'), 403, 'session_required');

    const changes = await audited(member.token, ws, 'member.role_changed');
    expect(changes.map((e) => [e.target?.id, e.data])).toEqual([
      [owner.userId, { from: 'owner', to: 'member' }],
      [member.userId, { from: 'member', to: 'owner' }],
    ]);
  });

  // The loser is refused either way it lost: demoted already when its owner check ran (403
  // owner_required: serialized, as on the embedded database), or still an owner then and the last
  // one once the winner committed (409 last_owner).
  it('two owners demoting each other at once: one wins, the other is refused, one owner left', async () => {
    const { owner, member } = await team(services);
    const ws = owner.workspaceId;
    await setRole(owner.token, ws, member.userId, 'owner');
    const results = await Promise.all([outcome(setRole(owner.token, ws, member.userId, 'member')), outcome(setRole(member.token, ws, owner.userId, 'member'))]);
    const won = results.filter((r) => r === 'done');
    const lost = results.filter((r) => r !== 'done');
    expect(won, results.join(' ')).toHaveLength(1);
    expect(['409 last_owner', '403 owner_required']).toContain(lost[0]);
    expect(Object.values(await roles(ws)).filter((r) => r === 'owner')).toHaveLength(1);
  });
});

describe(`making an owner is sudo mode, whatever the path (${ENGINE})`, () => {
  it('an owner who signed in long ago promotes nobody to owner, as they invite no owner, until they confirm who they are', async () => {
    const { owner, member } = await team(services);
    const ws = owner.workspaceId;
    await sql(services, "update sessions set authenticated_at = now() - interval '1 hour' where user_id = ?", [owner.userId]);
    const caller = await callerFor(services, owner.token);
    await expectRefused(caller.invitations.create({ workspace_id: ws, email: 'boss@example.com', role: 'owner' }), 403, 'reauthentication_required');
    await expectRefused(setRole(owner.token, ws, member.userId, 'owner'), 403, 'reauthentication_required');
    expect(await roles(ws)).toEqual({ [owner.userId]: 'owner', [member.userId]: 'member' });
    expect(await audited(owner.token, ws, 'member.role_changed')).toHaveLength(0);

    // What makes no owner asks nothing: a member invited, a role set to member.
    expect((await caller.invitations.create({ workspace_id: ws, email: 'helper@example.com', role: 'member' })).role).toBe('member');
    expect((await setRole(owner.token, ws, member.userId, 'member')).role).toBe('member');

    await caller.auth.reauthenticate({ password: TEST_PASSWORD });
    expect((await setRole(owner.token, ws, member.userId, 'owner')).role).toBe('owner');
  });
});

describe(`leaving (${ENGINE})`, () => {
  it('a member leaves and no longer reaches the workspace; the last owner cannot leave; a key cannot', async () => {
    const { owner, member } = await team(services);
    const ws = owner.workspaceId;
    await expectRefused(leave(owner.token, ws), 409, 'last_owner');
    const key = await createKey(services, owner);
    await expectRefused(leave(key.key, ws), 403, 'session_required');
    await leave(member.token, ws);
    await expectRefused((await callerFor(services, member.token)).members.list({ workspace_id: ws }), 404, 'workspace_not_found');
    await expectRefused(leave(member.token, ws), 404, 'workspace_not_found');
    expect(await roles(ws)).toEqual({ [owner.userId]: 'owner' });
    expect(await audited(owner.token, ws, 'member.left')).toEqual([
      // Named by address too: the audit log still says who left.
      expect.objectContaining({
        actor: { type: 'user', id: member.userId, email: member.email },
        target: { type: 'user', id: member.userId, email: member.email },
        data: { role: 'member' },
      }),
    ]);
  });

  it('an owner leaves once another owner stays', async () => {
    const { owner, member } = await team(services);
    const ws = owner.workspaceId;
    await setRole(owner.token, ws, member.userId, 'owner');
    await leave(owner.token, ws);
    expect(await roles(ws)).toEqual({ [member.userId]: 'owner' });
  });
});
