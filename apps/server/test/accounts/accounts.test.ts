import { describe, expect, it } from 'vitest';
import { PASSWORD, startTestServer, useTestServer } from '@lfk/server/testing';

const t = useTestServer();

describe('sign-up, login, sessions', () => {
  it('signup creates a user, a personal workspace with its default project, a session and a cookie', async () => {
    const res = await t.request('POST', '/v1/auth/signup', {
      body: { email: '  Ada@Example.COM ', password: PASSWORD, name: 'Ada' },
    });
    expect(res.status).toBe(201);
    expect(res.json.user).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
    expect(res.json.workspace).toMatchObject({ role: 'owner', name: "Ada's workspace" });
    expect(res.json.session_token).toMatch(/^lfs_/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`lfk_session=${res.json.session_token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    // Beside it, a cookie the dashboard's script reads to know a session is worth asking about: worth nothing itself.
    const hint = [res.headers['set-cookie']]
      .flat()
      .map(String)
      .find((c) => c.startsWith('lfk_signed_in='));
    expect(hint).toMatch(/^lfk_signed_in=1; /);
    expect(hint).not.toMatch(/HttpOnly/i);
    expect(hint).not.toContain(res.json.session_token);

    const projects = await t.request('GET', `/v1/workspaces/${res.json.workspace.id}/projects`, {
      token: res.json.session_token,
    });
    expect(projects.json.data).toEqual([expect.objectContaining({ name: 'Default', is_default: true })]);
    const stored = await t.sql<{ password_hash: string }>('select password_hash from users where id = ?', [res.json.user.id]);
    expect(stored[0]!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a taken email (any case), a short password and a malformed email', async () => {
    const { email } = await t.signup();
    const taken = await t.request('POST', '/v1/auth/signup', { body: { email: email.toUpperCase(), password: PASSWORD } });
    expect(taken.status).toBe(409);
    expect(taken.json.error.code).toBe('email_taken');
    const short = await t.request('POST', '/v1/auth/signup', { body: { email: 'short@example.com', password: 'abc' } });
    expect(short.status).toBe(400);
    expect(short.json.error.details).toEqual([expect.objectContaining({ path: 'password' })]);
    const bad = await t.request('POST', '/v1/auth/signup', { body: { email: 'not an email', password: PASSWORD } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details[0].path).toBe('email');
  });

  it('concurrent sign-ups with one address make one account', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.request('POST', '/v1/auth/signup', { body: { email: 'race@example.com', password: PASSWORD } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await t.count("users where email = 'race@example.com'")).toBe(1);
  });

  it('login answers the same 401 for a wrong password and an unknown email', async () => {
    const { email } = await t.signup();
    const wrong = await t.request('POST', '/v1/auth/login', { body: { email, password: 'wrong password!' } });
    const unknown = await t.request('POST', '/v1/auth/login', { body: { email: 'nobody@example.com', password: PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('invalid_credentials');
    expect({ ...wrong.json.error, request_id: '' }).toEqual({ ...unknown.json.error, request_id: '' });
    const ok = await t.request('POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
    expect(ok.status).toBe(200);
    expect(Date.parse(ok.json.expires_at) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
  });

  it('logout revokes the session for good and clears the cookie', async () => {
    const { token } = await t.signup();
    expect((await t.request('GET', '/v1/auth/session', { token })).status).toBe(200);
    const out = await t.request('POST', '/v1/auth/logout', { token });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/lfk_session=;/);
    expect(String(out.headers['set-cookie'])).toMatch(/lfk_signed_in=;/);
    const after = await t.request('GET', '/v1/auth/session', { token });
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe('invalid_session');
  });

  it('an expiring session slides forward when used; an expired one is refused', async () => {
    const { token, userId } = await t.signup();
    const soon = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
    await t.sql('update sessions set expires_at = ? where user_id = ?', [soon, userId]);
    const res = await t.request('GET', '/v1/auth/session', { token });
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.expires_at) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    await t.sql('update sessions set expires_at = ? where user_id = ?', [new Date(Date.now() - 1000).toISOString(), userId]);
    const expired = await t.request('GET', '/v1/auth/session', { token });
    expect(expired.status).toBe(401);
    expect(expired.json.error.code).toBe('invalid_session');
  });

  it('a cookie session works for reads, and for writes only from our own origin', async () => {
    const owner = await t.signup();
    const cookie = `lfk_session=${owner.token}`;
    expect((await t.request('GET', '/v1/auth/session', { headers: { cookie } })).status).toBe(200);
    const url = `/v1/workspaces/${owner.workspaceId}/api-keys`;
    const forged = await t.request('POST', url, { headers: { cookie, origin: 'https://evil.example' } });
    expect(forged.status).toBe(403);
    expect(forged.json.error.code).toBe('csrf_failed');
    const crossSite = await t.request('POST', url, { headers: { cookie, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const own = await t.request('POST', url, { headers: { cookie, origin: 'http://lfk.test' } });
    expect(own.status).toBe(201);
    // With both, the Authorization header decides.
    const both = await t.request('GET', '/v1/auth/session', { headers: { cookie: 'lfk_session=lfs_bogus' }, token: owner.token });
    expect(both.status).toBe(200);
    // A stale cookie does not stand in the way of signing in again.
    const relogin = await t.request('POST', '/v1/auth/login', {
      headers: { cookie: 'lfk_session=lfs_stale' },
      body: { email: owner.email, password: PASSWORD },
    });
    expect(relogin.status).toBe(200);
  });

  it('sign-up can be switched off', async () => {
    const closed = await startTestServer({ LFK_ALLOW_SIGNUP: 'false' });
    try {
      const res = await closed.request('POST', '/v1/auth/signup', { body: { email: 'a@example.com', password: PASSWORD } });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('signup_disabled');
    } finally {
      await closed.close();
    }
  });
});

describe('workspaces, members, projects', () => {
  it('lists and creates workspaces with the caller as owner, paginated newest first', async () => {
    const { token } = await t.signup();
    for (const name of ['Acme', 'Globex']) {
      const res = await t.request('POST', '/v1/workspaces', { token, body: { name } });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ name, role: 'owner' });
    }
    const first = await t.request('GET', '/v1/workspaces?limit=2', { token });
    expect(first.json.data.map((w: { name: string }) => w.name)).toEqual(['Globex', 'Acme']);
    expect(first.json.next_cursor).toBe(first.json.data[1].id);
    const second = await t.request('GET', `/v1/workspaces?limit=2&cursor=${first.json.next_cursor}`, { token });
    expect(second.json.data.map((w: { name: string }) => w.name)).toEqual(['Personal']);
    expect(second.json.next_cursor).toBeNull();
  });

  it('owners remove members; the last owner stays', async () => {
    const owner = await t.signup();
    const other = await t.signup();
    await t.addMember(owner.workspaceId, other.email, 'member');
    // Nobody is added without accepting an invitation: the old way in is gone.
    const direct = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/members`, { token: owner.token, body: { email: other.email } });
    expect(direct.status).toBe(404);

    const members = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/members`, { token: other.token });
    expect(members.json.data.map((m: { user_id: string }) => m.user_id).sort()).toEqual([owner.userId, other.userId].sort());

    const last = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/members/${owner.userId}`, { token: owner.token });
    expect(last.status).toBe(409);
    expect(last.json.error.code).toBe('last_owner');
    const removed = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/members/${other.userId}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    const gone = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/members`, { token: other.token });
    expect(gone.json.error.code).toBe('workspace_not_found');
    // The audit log still names the person who left by their address.
    const events = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    const removal = events.json.data.find((e: { action: string }) => e.action === 'member.removed');
    expect(removal).toMatchObject({
      actor: { type: 'user', id: owner.userId, email: owner.email },
      target: { type: 'user', id: other.userId, email: other.email },
    });
  });

  it('two owners removing each other at once leave one owner', async () => {
    const a = await t.signup();
    const b = await t.signup();
    await t.addMember(a.workspaceId, b.email, 'owner');
    const [x, y] = await Promise.all([
      t.request('DELETE', `/v1/workspaces/${a.workspaceId}/members/${b.userId}`, { token: a.token }),
      t.request('DELETE', `/v1/workspaces/${a.workspaceId}/members/${a.userId}`, { token: b.token }),
    ]);
    // One removal wins. The other is refused: 409 last_owner if its caller was still an owner when it
    // was authorized, or 404 if the winner had already removed its caller by then.
    const [won, lost] = x.status === 204 ? [x, y] : [y, x];
    expect(won.status).toBe(204);
    expect([409, 404]).toContain(lost.status);
    expect(lost.json.error.code).toBe(lost.status === 409 ? 'last_owner' : 'workspace_not_found');
    expect(await t.count("memberships where workspace_id = ? and role = 'owner'", [a.workspaceId])).toBe(1);
  });

  it('owners create projects, and forms can be placed in them', async () => {
    const owner = await t.signup();
    const project = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/projects`, {
      token: owner.token,
      body: { name: 'Website' },
    });
    expect(project.status).toBe(201);
    expect(project.json).toMatchObject({ name: 'Website', is_default: false, workspace_id: owner.workspaceId });
    const form = await t.request('POST', '/v1/forms', {
      token: owner.token,
      body: {
        workspace_id: owner.workspaceId,
        project_id: project.json.id,
        name: 'Signup',
        schema: [{ name: 'plan', type: 'select', options: ['free', 'pro'], required: true, label: 'Plan' }],
      },
    });
    expect(form.status).toBe(201);
    expect(form.json.project_id).toBe(project.json.id);
    expect(form.json.schema).toEqual([{ name: 'plan', type: 'select', options: ['free', 'pro'], required: true, label: 'Plan' }]);
    const other = await t.signup();
    const foreignProject = await t.request('POST', '/v1/forms', {
      token: other.token,
      body: { workspace_id: other.workspaceId, project_id: project.json.id, name: 'x', schema: form.json.schema },
    });
    expect(foreignProject.status).toBe(404);
    expect(foreignProject.json.error.code).toBe('project_not_found');
  });

  it('audit events name the owner for key and form changes and the key for form changes made with it', async () => {
    const owner = await t.signup();
    const { key, id: keyId } = await t.createKey(owner.token, owner.workspaceId, 'bot');
    const form = await t.request('POST', '/v1/forms', {
      token: key,
      body: { name: 'f', schema: [{ name: 'a', type: 'text' }] },
    });
    await t.request('PATCH', `/v1/forms/${form.json.id}`, { token: owner.token, body: { redirect_url: 'https://example.com/thanks' } });
    const events = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    const byAction = Object.fromEntries(events.json.data.map((e: { action: string }) => [e.action, e]));
    expect(byAction['api_key.created']).toMatchObject({ actor: { type: 'user', id: owner.userId }, target: { id: keyId } });
    expect(byAction['form.created']).toMatchObject({ actor: { type: 'api_key', id: keyId }, target: { id: form.json.id } });
    expect(byAction['form.updated']).toMatchObject({
      actor: { type: 'user', id: owner.userId },
      data: { fields: ['redirect_url'] },
    });
    expect(events.json.data.map((e: { id: string }) => e.id)).toEqual([...events.json.data.map((e: { id: string }) => e.id)].sort().reverse());
  });
});
