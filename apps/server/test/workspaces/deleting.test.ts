/**
 * Deleting a workspace (owners, typing its name) takes everything in it: its keys stop at once, its
 * forms and submissions go. Deleting one's account (with the password) takes the workspaces where
 * one is alone, and is refused while one is the last owner of a workspace others are in.
 */
import { createForm, expectError, linkTokenSentTo, PASSWORD, useTestServer } from '@lfk/server/testing';
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

describe('deleting a workspace, against what races it', () => {
  it('two owners deleting it at once: one 204, the other 404 workspace_not_found', async () => {
    const { owner, member } = await t.signupTeam();
    await t.sql("update memberships set role = 'owner' where user_id = ?", [member.userId]);
    const name = await nameOf(owner.token, owner.workspaceId);
    const answers = await Promise.all([deleteWorkspace(owner.token, owner.workspaceId, name), deleteWorkspace(member.token, owner.workspaceId, name)]);
    expect(answers.map((a) => a.status).sort()).toEqual([204, 404]);
    expect(answers.find((a) => a.status === 404)!.json.error.code).toBe('workspace_not_found');
  });

  it('an invitation accepted, a form changed, a key revoked and a rename, all while it is deleted: each answers its own status, never a 500', async () => {
    for (let round = 0; round < 3; round++) {
      const owner = await t.signup();
      const invitee = await t.signup();
      const { key, id: keyId } = await t.createKey(owner.token, owner.workspaceId);
      const form = await createForm(t, key, { name: 'Busy', schema: [{ name: 'email', type: 'email' }] });
      await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: invitee.email } });
      const token = await linkTokenSentTo(t, invitee.email, 'invitation');
      const name = await nameOf(owner.token, owner.workspaceId);
      const [accepted, patched, revoked, renamed, deleted] = await Promise.all([
        t.request('POST', `/v1/invitations/${token}/accept`, { token: invitee.token }),
        t.request('PATCH', `/v1/forms/${form.id}`, { token: owner.token, body: { name: 'Busier' } }),
        t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`, { token: owner.token }),
        t.request('PATCH', `/v1/workspaces/${owner.workspaceId}`, { token: owner.token, body: { name: 'Renamed' } }),
        deleteWorkspace(owner.token, owner.workspaceId, name),
      ]);
      expect([200, 404], accepted.body).toContain(accepted.status);
      expect([200, 404], patched.body).toContain(patched.status);
      expect([204, 404], revoked.body).toContain(revoked.status);
      expect([204, 404], renamed.body).toContain(renamed.status);
      // The rename may win the race, and the typed name is then stale: 400 on confirm, nothing deleted.
      expect([204, 400], deleted.body).toContain(deleted.status);
      if (deleted.status === 204) expect(await held(owner.workspaceId)).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });

  it("its keys' uses still waiting to be written are dropped; other keys' uses are written", async () => {
    const doomed = await t.signup();
    const kept = await t.signup();
    const { key: doomedKey } = await t.createKey(doomed.token, doomed.workspaceId);
    const { key: keptKey, id: keptId } = await t.createKey(kept.token, kept.workspaceId);
    const formBody = { name: 'Used', schema: [{ name: 'email', type: 'email' }] };
    expect((await t.request('POST', '/v1/forms', { token: doomedKey, body: formBody })).status).toBe(201);
    expect((await deleteWorkspace(doomed.token, doomed.workspaceId, await nameOf(doomed.token, doomed.workspaceId))).status).toBe(204);
    expect((await t.request('POST', '/v1/forms', { token: keptKey, body: formBody })).status).toBe(201);
    await t.server.services.keyUses.flush();
    expect(await t.count('api_key_usage where key_id = ?', [keptId])).toBe(1);
    // And the next flush has nothing of the deleted key left to retry.
    expect((await t.request('POST', '/v1/forms', { token: keptKey, body: formBody })).status).toBe(201);
    await t.server.services.keyUses.flush();
    expect((await t.sql<{ requests: number }>('select requests from api_key_usage where key_id = ?', [keptId]))[0]!.requests).toBe(2);
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

  it("a device's sign-in the account approved before it was deleted signs nobody in", async () => {
    const me = await t.signup();
    const device = await t.request('POST', '/v1/auth/device-logins', { body: { device_name: 'laptop' } });
    expect((await t.request('POST', `/v1/auth/device-logins/${device.json.user_code}/approve`, { token: me.token })).status).toBe(200);
    expect((await deleteAccount(me.token, PASSWORD)).status).toBe(204);
    expectError(await t.request('POST', '/v1/auth/device-logins/token', { body: { device_code: device.json.device_code } }), 404, 'device_login_not_found');
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
