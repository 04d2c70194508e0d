import { generateApiKey } from '@lfk/api';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '@lfk/server/testing';

const t = useTestServer();

const formBody = { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }] };

describe('API key lifecycle', () => {
  it('creates a key shown once, lists it by prefix only, and stores only its hash', async () => {
    const owner = await t.signup();
    const created = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, {
      token: owner.token,
      body: { name: 'deploy bot' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: 'deploy bot',
      status: 'active',
      workspace_id: owner.workspaceId,
      created_by: owner.userId,
    });
    expect(created.json.key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    expect(created.json.prefix).toBe(created.json.key.slice(0, 10));
    expect(created.json.id).toMatch(/^key_/);
    expect(created.headers['cache-control']).toBe('no-store');

    const list = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json.data).toEqual([
      {
        id: created.json.id,
        name: 'deploy bot',
        description: null,
        prefix: created.json.prefix,
        status: 'active',
        allowed_ips: null,
        created_by: owner.userId,
        created_at: created.json.created_at,
        expires_at: null,
        last_used_at: null,
        last_used_ip: null,
        last_used_user_agent: null,
        revoked_at: null,
        revoked_reason: null,
        rolled_to: null,
        uses_today: { requests: 0, refused: 0 },
      },
    ]);
    expect(list.body).not.toContain(created.json.key);
    expect(list.json.next_cursor).toBeNull();

    const rows = await t.sql<{ key_hash: string; prefix: string }>('select key_hash, prefix from api_keys where id = ?', [created.json.id]);
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.key_hash).not.toContain(created.json.key.slice(4));
    expect(rows[0]!.prefix).toBe(created.json.prefix);
  });

  it('a key provisions, reads and updates forms born claimed in its workspace', async () => {
    const { owner, key } = await t.signupWithKey();
    const created = await t.request('POST', '/v1/forms', { token: key, body: formBody });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      workspace_id: owner.workspaceId,
      state: 'claimed',
      name: 'Contact',
      schema: [{ name: 'email', type: 'email', required: true }],
      submission_mode: 'browser',
      allowed_origins: [],
      notify_email: null,
      notify_email_verified: false,
      redirect_url: null,
    });
    expect(created.json.project_id).toMatch(/^prj_/);

    const read = await t.request('GET', `/v1/forms/${created.json.id}`, { token: key });
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);

    const updated = await t.request('PATCH', `/v1/forms/${created.json.id}`, {
      token: key,
      body: { name: 'Contact us', allowed_origins: ['https://Example.com:443', 'https://example.com'] },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.name).toBe('Contact us');
    expect(updated.json.allowed_origins).toEqual(['https://example.com']);

    const stored = await t.sql<{ name: string }>('select name from forms where id = ?', [created.json.id]);
    expect(stored[0]!.name).toBe('Contact us');
  });

  it('revocation is soft, idempotent, listed, and effective on the very next request', async () => {
    const owner = await t.signup();
    const { key, id } = await t.createKey(owner.token, owner.workspaceId, 'soon gone');
    const form = await t.request('POST', '/v1/forms', { token: key, body: formBody });
    expect(form.status).toBe(201);

    const revoke = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token });
    expect(revoke.status).toBe(204);
    expect(revoke.body).toBe('');

    const next = await t.request('GET', `/v1/forms/${form.json.id}`, { token: key });
    expect(next.status).toBe(401);
    expect(next.json.error.code).toBe('invalid_api_key');

    const again = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token });
    expect(again.status).toBe(204);

    const list = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(list.json.data).toHaveLength(1);
    expect(list.json.data[0]).toMatchObject({ id, status: 'revoked' });
    expect(Date.parse(list.json.data[0].revoked_at)).not.toBeNaN();

    const events = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    const revokedEvents = events.json.data.filter((e: { action: string }) => e.action === 'api_key.revoked');
    expect(revokedEvents).toHaveLength(1);
    expect(revokedEvents[0]).toMatchObject({ actor: { type: 'user', id: owner.userId }, target: { type: 'api_key', id } });
    const createdEvents = events.json.data.filter((e: { action: string }) => e.action === 'api_key.created');
    expect(createdEvents[0]).toMatchObject({ actor: { type: 'user', id: owner.userId }, target: { type: 'api_key', id } });
    expect(events.body).not.toContain(key);
  });

  it('unknown key ids are 404 api_key_not_found, whatever their shape', async () => {
    const owner = await t.signup();
    for (const keyId of ['key_01jd00000000000000000000aa', 'nope', 'key_%00', 'x'.repeat(300)]) {
      const res = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${encodeURIComponent(keyId)}`, {
        token: owner.token,
      });
      expect(res.status, keyId).toBe(404);
      expect(res.json.error.code).toBe('api_key_not_found');
    }
    const other = await t.signup();
    const { id } = await t.createKey(other.token, other.workspaceId);
    const foreign = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token });
    expect(foreign.status).toBe(404);
    const list = await t.request('GET', `/v1/workspaces/${other.workspaceId}/api-keys`, { token: other.token });
    expect(list.json.data[0].status).toBe('active');
  });

  it('the 11th active key is refused with 429, and revoking one makes room again', async () => {
    const owner = await t.signup();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await t.createKey(owner.token, owner.workspaceId)).id);
    const eleventh = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(eleventh.status).toBe(429);
    expect(eleventh.json.error.code).toBe('api_key_limit_reached');
    await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${ids[0]}`, { token: owner.token });
    const replacement = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(replacement.status).toBe(201);
    const list = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(list.json.data).toHaveLength(11);
    expect(list.json.data.filter((k: { status: string }) => k.status === 'active')).toHaveLength(10);
  });

  it('50 concurrent creates on an empty workspace give exactly 10 × 201 and 40 × 429', async () => {
    const owner = await t.signup();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    for (const r of results.filter((r) => r.status === 429)) expect(r.json.error.code).toBe('api_key_limit_reached');
    expect(await t.count('api_keys where workspace_id = ? and revoked_at is null', [owner.workspaceId])).toBe(10);
  });

  it('records last_used_at in batches, off the request path', async () => {
    const { owner, key, id } = await t.signupWithKey();
    const before = Date.now();
    const res = await t.request('POST', '/v1/forms', { token: key, body: formBody });
    expect(res.status).toBe(201);
    // Nothing is written on the request itself…
    const unflushed = await t.sql<{ last_used_at: unknown }>('select last_used_at from api_keys where id = ?', [id]);
    expect(unflushed[0]!.last_used_at).toBeNull();
    // …and the batch writes it.
    await t.server.services.keyUses.flush();
    const list = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(Date.parse(list.json.data[0].last_used_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('unknown, revoked and malformed keys get byte-identical answers but for the request id', async () => {
    const { owner, key: revoked, id } = await t.signupWithKey();
    await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token });
    const unknown = generateApiKey().key;
    const badChecksum = `${unknown.slice(0, -1)}${unknown.endsWith('A') ? 'B' : 'A'}`;
    const candidates = [unknown, revoked, badChecksum, 'lfk_short', 'not-a-key', `lfk_${'x'.repeat(500)}`];
    const answers = [];
    for (const candidate of candidates) {
      const res = await t.request('POST', '/v1/forms', { token: candidate, body: formBody });
      const requestId = res.headers['x-request-id'] as string;
      const { date: _date, 'x-request-id': _id, ...headers } = res.headers;
      answers.push({ status: res.status, body: res.body.replace(requestId, 'REQ'), headers });
    }
    expect(answers[0]!.status).toBe(401);
    expect(JSON.parse(answers[0]!.body).error.code).toBe('invalid_api_key');
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });
});
