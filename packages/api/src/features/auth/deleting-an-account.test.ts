/**
 * Deleting one's account (`auth.deleteAccount`, with the password) takes the workspaces where one is
 * alone, and is refused while one is the last owner of a workspace others are in. The route and its
 * 204 are the REST table's.
 */
import { ENGINE } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { TEST_PASSWORD } from '../../testing.ts';
import { count, sql } from '../../../test/support/database.ts';
import { createForm } from '../../../test/support/forms.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { team } from '../../../test/support/team.ts';
import { heldBy, workspaceName } from '../../../test/support/workspaces.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

const as = (token?: string) => callerFor(services, token);
const deleteAccount = async (token: string | undefined, password: unknown) => (await as(token)).auth.deleteAccount({ password } as never);
const session = async (token: string) => (await as(token)).auth.session();
const membersOf = async (token: string, ws: string) => (await (await as(token)).members.list({ workspace_id: ws })).data;
const setRole = async (token: string, ws: string, userId: string, role: 'owner' | 'member') =>
  (await as(token)).members.setRole({ workspace_id: ws, user_id: userId, role });

describe(`deleting an account (${ENGINE})`, () => {
  it('needs the password; then its sessions, its own workspace and its memberships go; its keys elsewhere stay', async () => {
    const { owner, member } = await team(services);
    const own = await createForm(services, (await createKey(services, member)).key, { name: 'Mine', schema: [{ name: 'email', type: 'email' }] });
    await sql(services, "update memberships set role = 'owner' where user_id = ? and workspace_id = ?", [member.userId, owner.workspaceId]);
    // A key the leaving person made in the workspace that stays.
    const { key, id } = await createKey(services, { token: member.token, workspaceId: owner.workspaceId }, { name: 'made by the leaver' });

    const wrong = await expectRefused(deleteAccount(member.token, 'not the password'), 400, 'invalid_request');
    expect(wrong.details).toEqual([{ path: 'password', message: 'Is not your password.' }]);
    await deleteAccount(member.token, TEST_PASSWORD);

    await expectRefused(session(member.token), 401, 'invalid_session');
    await expectRefused((await as()).auth.login({ email: member.email, password: TEST_PASSWORD }), 401, 'invalid_credentials');
    expect(await count(services, 'users where id = ?', [member.userId])).toBe(0);
    expect(await heldBy(services, member.workspaceId)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await count(services, 'forms where id = ?', [own.id])).toBe(0);
    expect((await membersOf(owner.token, owner.workspaceId)).map((m) => m.user_id)).toEqual([owner.userId]);
    const keys = (await (await as(owner.token)).apiKeys.list({ workspace_id: owner.workspaceId })).data;
    expect(keys.find((k) => k.id === id)).toMatchObject({ status: 'active', created_by: null });
    // The key still authenticates (a key is refused the session route, but not as a stranger).
    expect(await outcome(session(key))).not.toMatch(/^401 /);
    const events = (await (await as(owner.token)).auditEvents.list({ workspace_id: owner.workspaceId })).data;
    expect(events[0]).toMatchObject({ action: 'member.left', actor: { type: 'user', id: member.userId } });
    // The address is free again.
    expect((await (await as()).auth.signup({ email: member.email, password: TEST_PASSWORD })).session_token).toMatch(/^lfs_/);
  });

  it('is refused while the last owner of a workspace that has other members, naming it; nothing changes', async () => {
    const { owner, member } = await team(services);
    const name = await workspaceName(services, owner.workspaceId);
    const refused = await expectRefused(deleteAccount(owner.token, TEST_PASSWORD), 409, 'last_owner');
    expect(refused.message).toContain(`"${name}"`);
    expect((await session(owner.token)).user.id).toBe(owner.userId);
    expect(await membersOf(member.token, owner.workspaceId)).toHaveLength(2);
    // Once the member is an owner too, the account can go, and the workspace stays theirs.
    await setRole(owner.token, owner.workspaceId, member.userId, 'owner');
    await deleteAccount(owner.token, TEST_PASSWORD);
    expect(await membersOf(member.token, owner.workspaceId)).toHaveLength(1);
  });

  it("a device's sign-in the account approved before it was deleted signs nobody in", async () => {
    const me = await person(services);
    const device = await (await as()).deviceLogins.start({ device_name: 'laptop' });
    expect((await (await as(me.token)).deviceLogins.approve({ user_code: device.user_code })).state).toBe('approved');
    await deleteAccount(me.token, TEST_PASSWORD);
    await expectRefused((await as()).deviceLogins.token({ device_code: device.device_code }), 404, 'device_login_not_found');
  });

  it('a key cannot delete an account, nor can nobody', async () => {
    const owner = await person(services);
    const { key } = await createKey(services, owner);
    await expectRefused(deleteAccount(key, TEST_PASSWORD), 403, 'session_required');
    await expectRefused(deleteAccount(undefined, TEST_PASSWORD), 401, 'unauthenticated');
    expect((await session(owner.token)).user.id).toBe(owner.userId);
  });

  // Either order is a right answer: promoted first, the account goes and the member is the one owner
  // left; deleted first, it is refused (the last owner), and the promotion then makes two owners.
  // Never none.
  it('racing a promotion: the last owner deleting their account while promoting the other never leaves the workspace without an owner', async () => {
    const { owner, member } = await team(services);
    const [deleted, promoted] = await Promise.all([
      outcome(deleteAccount(owner.token, TEST_PASSWORD)),
      outcome(setRole(owner.token, owner.workspaceId, member.userId, 'owner')),
    ]);
    expect(['done', '409'], deleted).toContain(deleted.split(' ')[0]);
    expect(['done', '401'], promoted).toContain(promoted.split(' ')[0]);
    const owners = (
      await sql<{ user_id: string }>(services, "select user_id from memberships where workspace_id = ? and role = 'owner'", [owner.workspaceId])
    ).map((m) => m.user_id);
    if (deleted === 'done') expect(owners).toEqual([member.userId]);
    else expect(owners).toContain(owner.userId);
  });
});
