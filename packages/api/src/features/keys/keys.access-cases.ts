/**
 * The authorization matrix's rows for API keys: who may call each REST route of this folder, and what
 * its success looks like (test-only; the words are ../../test-tables/access.ts's, the cells run in apps/server).
 */
import { expect } from 'vitest';
import { type AccessCase, anyKey, t, workspaceOwner } from '../../test-tables/access.ts';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /v1/api-keys/current',
    // Each key answers for itself, and for nothing else.
    success: (res, { w, caller }) => {
      const key = caller === 'workspace_key' ? w.key : w.otherKey;
      expect(res.json.id).toBe(key.id);
      expect(res.json.prefix).toBe(key.key.slice(0, 10));
      expect(JSON.stringify(res.json)).not.toContain(key.key);
    },
    expect: anyKey(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/api-keys',
    prepare: async () => ({ body: { name: 'matrix cell' } }),
    success: (res, { w }) => {
      expect(res.json.key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
      expect(res.json.workspace_id).toBe(w.ws);
    },
    expect: workspaceOwner(201),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/api-keys',
    success: (res, { w }) => expect(res.json.data).toContainEqual(expect.objectContaining({ id: w.key.id, status: 'active' })),
    expect: workspaceOwner(200),
  },
  {
    route: 'DELETE /v1/workspaces/:workspace_id/api-keys/:key_id',
    // A fresh key of W to revoke, never one a caller column uses.
    prepare: async (w) => {
      const doomed = await t.createKey(w.owner.token, w.ws, 'to revoke');
      return { params: { key_id: doomed.id }, ref: { keyId: doomed.id } };
    },
    success: (res) => expect(res.body).toBe(''),
    expect: workspaceOwner(204),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/api-keys/:key_id',
    prepare: async (w) => ({ params: { key_id: w.key.id } }),
    success: (res, { w }) => expect(res.json).toMatchObject({ id: w.key.id, status: 'active', revoked_reason: null }),
    expect: workspaceOwner(200),
  },
  {
    route: 'PATCH /v1/workspaces/:workspace_id/api-keys/:key_id',
    // A fresh key of W to rename, never one a caller column uses.
    prepare: async (w) => {
      const renamed = await t.createKey(w.owner.token, w.ws, 'to rename');
      return { params: { key_id: renamed.id }, body: { name: 'renamed', description: 'matrix cell' }, ref: { keyId: renamed.id } };
    },
    success: (res, { prepared }) => expect(res.json).toMatchObject({ id: prepared.ref!.keyId, name: 'renamed', description: 'matrix cell' }),
    expect: workspaceOwner(200),
  },
  {
    route: 'POST /v1/workspaces/:workspace_id/api-keys/:key_id/roll',
    // A fresh key of W to roll (with no grace, so the limit never bites), never one a caller column uses.
    prepare: async (w) => {
      const rolled = await t.createKey(w.owner.token, w.ws, 'to roll');
      return { params: { key_id: rolled.id }, body: { grace_seconds: 0 }, ref: { keyId: rolled.id } };
    },
    success: (res, { w, prepared }) => {
      expect(res.json).toMatchObject({ name: 'to roll', status: 'active', workspace_id: w.ws });
      expect(res.json.id).not.toBe(prepared.ref!.keyId);
      expect(res.json.key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    },
    expect: workspaceOwner(201),
  },
  {
    route: 'GET /v1/workspaces/:workspace_id/api-keys/:key_id/usage',
    prepare: async (w) => ({ params: { key_id: w.key.id } }),
    success: (res) => expect(res.json.data).toHaveLength(30),
    expect: workspaceOwner(200),
  },
];
