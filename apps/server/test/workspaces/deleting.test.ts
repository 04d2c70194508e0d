/**
 * Deleting a workspace (owners, typing its name) takes everything in it: its keys stop at once, its
 * forms and submissions go. Deleting one's account (with the password) takes the workspaces where
 * one is alone, and is refused while one is the last owner of a workspace others are in.
 */
import { createForm, expectError, PASSWORD, useTestServer } from '@lfk/testing';
import { describe, expect, it } from 'vitest';

const t = useTestServer();

const nameOf = async (token: string, ws: string) =>
  ((await t.request('GET', '/v1/workspaces', { token })).json.data as { id: string; name: string }[]).find((w) => w.id === ws)!.name;
const deleteWorkspace = (token: string, ws: string, confirm: unknown) => t.request('DELETE', `/v1/workspaces/${ws}`, { token, body: { confirm } });
const held = (ws: string) =>
  Promise.all(
    ['api_keys', 'forms', 'memberships', 'projects', 'audit_events', 'invitations'].map((table) => t.count(`${table} where workspace_id = ?`, [ws])),
  );

describe('deleting a workspace', () => {
  it('typing its name deletes it with its keys, forms, submissions, members and invitations; its key is refused at once', async () => {
    const { owner, member } = await t.signupTeam();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    const form = await createForm(t, key, { name: 'Leads', schema: [{ name: 'email', type: 'email' }] });
    for (let i = 0; i < 3; i++) expect((await t.request('POST', `/v1/forms/${form.id}/submissions`, { token: key, body: { email: `x${i}@example.org` } })).status).toBe(201);
    await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: 'invited@example.com' } });
    const name = await nameOf(owner.token, owner.workspaceId);

    const wrong = expectError(await deleteWorkspace(owner.token, owner.workspaceId, `${name} `), 400, 'invalid_request');
    expect(wrong.details).toEqual([{ path: 'confirm', message: "Must be the workspace's name, exactly as it is written." }]);
    expectError(await deleteWorkspace(member.token, owner.workspaceId, name), 403, 'owner_required');
    expectError(await deleteWorkspace(key, owner.workspaceId, name), 403, 'session_required');
    expect((await t.request('GET', `/v1/forms/${form.id}`, { token: key })).status).toBe(200);

    expect((await deleteWorkspace(owner.token, owner.workspaceId, name)).status).toBe(204);
    expectError(await t.request('GET', `/v1/forms/${form.id}`, { token: key }), 401, 'invalid_api_key');
    expectError(await t.request('GET', `/v1/workspaces/${owner.workspaceId}/members`, { token: member.token }), 404, 'workspace_not_found');
    expectError(await t.request('GET', `/v1/workspaces/${owner.workspaceId}/members`, { token: owner.token }), 404, 'workspace_not_found');
    expect(await held(owner.workspaceId)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await t.count('submissions where form_id = ?', [form.id])).toBe(0);
    // The people stay: the workspace was theirs, not them.
    expect((await t.request('GET', '/v1/auth/session', { token: member.token })).status).toBe(200);
    expect((await t.request('GET', '/v1/workspaces', { token: owner.token })).json.data).toEqual([]);
  });

  it('a key in use while its workspace is deleted: every answer is the form, 401 or 404, never a 500, and nothing is left', async () => {
    const owner = await t.signup();
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    const name = await nameOf(owner.token, owner.workspaceId);
    const body = { name: 'Racing', schema: [{ name: 'email', type: 'email' }] };
    const creations = Array.from({ length: 12 }, () => t.request('POST', '/v1/forms', { token: key, body }));
    const deleted = deleteWorkspace(owner.token, owner.workspaceId, name);
    const answers = await Promise.all(creations);
    expect((await deleted).status).toBe(204);
    for (const res of answers) {
      expect([201, 401, 404], res.body).toContain(res.status);
      if (res.status === 401) expect(res.json.error.code).toBe('invalid_api_key');
      if (res.status === 404) expect(res.json.error.code).toBe('workspace_not_found');
    }
    expect(await held(owner.workspaceId)).toEqual([0, 0, 0, 0, 0, 0]);
    expectError(await t.request('POST', '/v1/forms', { token: key, body }), 401, 'invalid_api_key');
  });
});

describe('deleting an account', () => {
  const deleteAccount = (token: string, password: unknown) => t.request('DELETE', '/v1/auth/account', { token, body: { password } });

  it('needs the password; then its sessions, its own workspace and its memberships go; its keys elsewhere stay', async () => {
    const { owner, member } = await t.signupTeam();
    const own = await createForm(t, (await t.createKey(member.token, member.workspaceId)).key, { name: 'Mine', schema: [{ name: 'email', type: 'email' }] });
    await t.sql("update memberships set role = 'owner' where user_id = ? and workspace_id = ?", [member.userId, owner.workspaceId]);
    // A key the leaving person made in the workspace that stays.
    const { key, id } = await t.createKey(member.token, owner.workspaceId, 'made by the leaver');

    const wrong = expectError(await deleteAccount(member.token, 'not the password'), 400, 'invalid_request');
    expect(wrong.details).toEqual([{ path: 'password', message: 'Is not your password.' }]);
    expect((await deleteAccount(member.token, PASSWORD)).status).toBe(204);

    expectError(await t.request('GET', '/v1/auth/session', { token: member.token }), 401, 'invalid_session');
    expectError(await t.request('POST', '/v1/auth/login', { body: { email: member.email, password: PASSWORD } }), 401, 'invalid_credentials');
    expect(await t.count('users where id = ?', [member.userId])).toBe(0);
    expect(await held(member.workspaceId)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await t.count('forms where id = ?', [own.id])).toBe(0);
    const members = (await t.request('GET', `/v1/workspaces/${owner.workspaceId}/members`, { token: owner.token })).json.data;
    expect(members.map((m: { user_id: string }) => m.user_id)).toEqual([owner.userId]);
    const keys = (await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token })).json.data;
    expect(keys.find((k: { id: string }) => k.id === id)).toMatchObject({ status: 'active', created_by: null });
    expect((await t.request('GET', '/v1/auth/session', { token: key })).status).not.toBe(401);
    const events = (await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token })).json.data;
    expect(events[0]).toMatchObject({ action: 'member.left', actor: { type: 'user', id: member.userId } });
    // The address is free again.
    expect((await t.request('POST', '/v1/auth/signup', { body: { email: member.email, password: PASSWORD } })).status).toBe(201);
  });

  it('is refused while the last owner of a workspace that has other members, naming it; nothing changes', async () => {
    const { owner, member } = await t.signupTeam();
    const name = await nameOf(owner.token, owner.workspaceId);
    const refused = expectError(await deleteAccount(owner.token, PASSWORD), 409, 'last_owner');
    expect(refused.message).toContain(`"${name}"`);
    expect((await t.request('GET', '/v1/auth/session', { token: owner.token })).status).toBe(200);
    expect((await t.request('GET', `/v1/workspaces/${owner.workspaceId}/members`, { token: member.token })).json.data).toHaveLength(2);
    // Once the member is an owner too, the account can go, and the workspace stays theirs.
    await t.request('PATCH', `/v1/workspaces/${owner.workspaceId}/members/${member.userId}`, { token: owner.token, body: { role: 'owner' } });
    expect((await deleteAccount(owner.token, PASSWORD)).status).toBe(204);
    expect((await t.request('GET', `/v1/workspaces/${owner.workspaceId}/members`, { token: member.token })).json.data).toHaveLength(1);
  });

  it('a key cannot delete an account, nor can nobody', async () => {
    const { owner, key } = await t.signupWithKey();
    expectError(await deleteAccount(key, PASSWORD), 403, 'session_required');
    expectError(await t.request('DELETE', '/v1/auth/account', { body: { password: PASSWORD } }), 401, 'unauthenticated');
    expect((await t.request('GET', '/v1/auth/session', { token: owner.token })).status).toBe(200);
  });

  it('racing a promotion: the last owner deleting their account while promoting the other ends with one owner either way', async () => {
    const { owner, member } = await t.signupTeam();
    const [deleted, promoted] = await Promise.all([
      deleteAccount(owner.token, PASSWORD),
      t.request('PATCH', `/v1/workspaces/${owner.workspaceId}/members/${member.userId}`, { token: owner.token, body: { role: 'owner' } }),
    ]);
    expect([204, 409]).toContain(deleted.status);
    expect([200, 401]).toContain(promoted.status);
    const owners = await t.count("memberships where workspace_id = ? and role = 'owner'", [owner.workspaceId]);
    expect(owners).toBe(1);
  });
});
