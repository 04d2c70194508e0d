/**
 * A member's role changed by an owner (the last owner stays one, races included) and a workspace
 * renamed, on both engines.
 */
import { ENGINE, expectError, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

const t = useTestServer();

const setRole = (token: string, workspaceId: string, userId: string, role: unknown) =>
  t.request('PATCH', `/v1/workspaces/${workspaceId}/members/${userId}`, { token, body: { role } });
const roles = async (workspaceId: string) =>
  Object.fromEntries((await t.sql<{ user_id: string; role: string }>('select user_id, role from memberships where workspace_id = ?', [workspaceId])).map((m) => [m.user_id, m.role]));

describe(`roles (${ENGINE})`, () => {
  it('an owner promotes and demotes; the last owner stays one; the audit log says from and to', async () => {
    const { owner, member, outsider } = await t.signupTeam();
    const ws = owner.workspaceId;
    const promoted = await setRole(owner.token, ws, member.userId, 'owner');
    expect(promoted.status, promoted.body).toBe(200);
    expect(promoted.json).toMatchObject({ user_id: member.userId, email: member.email, role: 'owner' });
    // Now two owners: either may step down, but not both.
    expect((await setRole(member.token, ws, owner.userId, 'member')).json.role).toBe('member');
    expectError(await setRole(member.token, ws, member.userId, 'member'), 409, 'last_owner');
    expect(await roles(ws)).toEqual({ [owner.userId]: 'member', [member.userId]: 'owner' });
    // The same role again changes nothing and records nothing.
    expect((await setRole(member.token, ws, member.userId, 'owner')).json.role).toBe('owner');

    expectError(await setRole(owner.token, ws, member.userId, 'member'), 403, 'owner_required');
    expectError(await setRole(outsider.token, ws, member.userId, 'member'), 404, 'workspace_not_found');
    expectError(await setRole(member.token, ws, outsider.userId, 'owner'), 404, 'member_not_found');
    expectError(await setRole(member.token, ws, 'usr_nope', 'owner'), 404, 'member_not_found');
    for (const role of ['admin', '', null, 1]) expectError(await setRole(member.token, ws, owner.userId, role), 400, 'invalid_request');
    const key = await t.createKey(member.token, ws);
    expectError(await setRole(key.key, ws, owner.userId, 'owner'), 403, 'session_required');

    const audit = await t.request('GET', `/v1/workspaces/${ws}/audit-events`, { token: member.token });
    const changes = audit.json.data.filter((e: { action: string }) => e.action === 'member.role_changed');
    expect(changes.map((e: { target: { id: string }; data: unknown }) => [e.target.id, e.data])).toEqual([
      [owner.userId, { from: 'owner', to: 'member' }],
      [member.userId, { from: 'member', to: 'owner' }],
    ]);
  });

  // The loser is refused either way it lost: demoted already when its owner check ran (403
  // owner_required: serialized, as on the embedded database), or still an owner then and the last
  // one once the winner committed (409 last_owner).
  it('two owners demoting each other at once: one wins, the other is refused, one owner left', async () => {
    const { owner, member } = await t.signupTeam();
    const ws = owner.workspaceId;
    await setRole(owner.token, ws, member.userId, 'owner');
    const [a, b] = await Promise.all([setRole(owner.token, ws, member.userId, 'member'), setRole(member.token, ws, owner.userId, 'member')]);
    const [won, lost] = a!.status === 200 ? [a!, b!] : [b!, a!];
    expect(won.status, `${a!.body} ${b!.body}`).toBe(200);
    expect(['409 last_owner', '403 owner_required']).toContain(`${lost.status} ${lost.json.error.code}`);
    expect(Object.values(await roles(ws)).filter((r) => r === 'owner')).toHaveLength(1);
  });
});

describe(`leaving (${ENGINE})`, () => {
  it('a member leaves and no longer reaches the workspace; the last owner cannot leave; a key cannot', async () => {
    const { owner, member } = await t.signupTeam();
    const ws = owner.workspaceId;
    const leave = (token: string) => t.request('POST', `/v1/workspaces/${ws}/leave`, { token });
    expectError(await leave(owner.token), 409, 'last_owner');
    const key = await t.createKey(owner.token, ws);
    expectError(await leave(key.key), 403, 'session_required');
    const left = await leave(member.token);
    expect(left.status, left.body).toBe(204);
    expectError(await t.request('GET', `/v1/workspaces/${ws}/members`, { token: member.token }), 404, 'workspace_not_found');
    expectError(await leave(member.token), 404, 'workspace_not_found');
    expect(await roles(ws)).toEqual({ [owner.userId]: 'owner' });
    const audit = await t.request('GET', `/v1/workspaces/${ws}/audit-events`, { token: owner.token });
    expect(audit.json.data.filter((e: { action: string }) => e.action === 'member.left')).toEqual([
      expect.objectContaining({ actor: { type: 'user', id: member.userId }, target: { type: 'user', id: member.userId }, data: { role: 'member' } }),
    ]);
  });

  it('an owner leaves once another owner stays', async () => {
    const { owner, member } = await t.signupTeam();
    const ws = owner.workspaceId;
    await setRole(owner.token, ws, member.userId, 'owner');
    expect((await t.request('POST', `/v1/workspaces/${ws}/leave`, { token: owner.token })).status).toBe(204);
    expect(await roles(ws)).toEqual({ [member.userId]: 'owner' });
  });
});

describe(`workspace names (${ENGINE})`, () => {
  it('an owner renames the workspace; members see the new name; others cannot', async () => {
    const { owner, member, outsider } = await t.signupTeam();
    const ws = owner.workspaceId;
    const before = (await t.sql<{ name: string }>('select name from workspaces where id = ?', [ws]))[0]!.name;
    const renamed = await t.request('PATCH', `/v1/workspaces/${ws}`, { token: owner.token, body: { name: '  Acme Forms  ' } });
    expect(renamed.status, renamed.body).toBe(204);
    const listed = await t.request('GET', '/v1/workspaces', { token: member.token });
    expect(listed.json.data.find((w: { id: string }) => w.id === ws)).toMatchObject({ name: 'Acme Forms', role: 'member' });

    expectError(await t.request('PATCH', `/v1/workspaces/${ws}`, { token: member.token, body: { name: 'Mine' } }), 403, 'owner_required');
    expectError(await t.request('PATCH', `/v1/workspaces/${ws}`, { token: outsider.token, body: { name: 'Mine' } }), 404, 'workspace_not_found');
    for (const name of ['', '   ', 'x'.repeat(101), 'two\nlines', 42]) {
      const error = expectError(await t.request('PATCH', `/v1/workspaces/${ws}`, { token: owner.token, body: { name } }), 400, 'invalid_request');
      expect(error.details?.[0]?.path).toBe('name');
    }
    const audit = await t.request('GET', `/v1/workspaces/${ws}/audit-events`, { token: owner.token });
    expect(audit.json.data.filter((e: { action: string }) => e.action === 'workspace.renamed').map((e: { data: unknown }) => e.data)).toEqual([
      { from: before, to: 'Acme Forms' },
    ]);
  });
});
