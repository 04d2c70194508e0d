/**
 * `GET /v1/api-keys/current`: a key asks which key it is (issue 28, item 3): its id, name, display
 * prefix, workspace and expiry, nothing secret, nothing of other keys. An unknown or revoked key
 * gets the identical 401; a session, which has no key, is told a key is needed.
 */
import { generateApiKey } from '@lfk/api';
import { useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

const t = useTestServer();

/** An answer without what differs between any two answers (its request id). */
const comparable = (res: { status: number; headers: Record<string, unknown>; body: string }) => ({
  status: res.status,
  headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !['x-request-id', 'date'].includes(name))),
  body: res.body.replace(/req_[0-9a-f]+/, 'req_'),
});

describe('GET /v1/api-keys/current', () => {
  it('answers the key the request presents, and nothing secret', async () => {
    const owner = await t.signup();
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, {
      token: owner.token,
      body: { name: 'agent', expires_at: expiresAt, allowed_ips: ['127.0.0.0/8', '::1'] },
    });
    expect(created.status).toBe(201);
    const res = await t.request('GET', '/v1/api-keys/current', { token: created.json.key });
    expect(res.status, res.body).toBe(200);
    expect(res.json).toEqual({
      id: created.json.id,
      name: 'agent',
      prefix: created.json.prefix,
      workspace_id: owner.workspaceId,
      created_at: created.json.created_at,
      expires_at: created.json.expires_at,
      allowed_ips: ['127.0.0.0/8', '::1'],
    });
    expect(res.body).not.toContain(created.json.key);
  });

  it('refuses an unknown and a revoked key with the identical 401, and a session with api_key_required', async () => {
    const { owner, key, id } = await t.signupWithKey();
    expect((await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token })).status).toBe(204);
    const revoked = await t.request('GET', '/v1/api-keys/current', { token: key });
    // Well formed (its checksum holds), and never made.
    const unknown = await t.request('GET', '/v1/api-keys/current', { token: generateApiKey().key });
    expect(revoked.status).toBe(401);
    expect(revoked.json.error.code).toBe('invalid_api_key');
    expect(comparable(revoked)).toEqual(comparable(unknown));

    const bySession = await t.request('GET', '/v1/api-keys/current', { token: owner.token });
    expect(bySession.status).toBe(401);
    expect(bySession.json.error.code).toBe('api_key_required');
  });
});
