/**
 * Renaming a key and describing it (issue 28): `PATCH …/api-keys/{key_id}` by an owner. A rename is
 * audited with its before and after; a description is audited as changed (it is the owners' own
 * text, shown on the key's page). Who may call it is the authorization matrix's; the allowlist part
 * is allowed-ips.test.ts's.
 */
import { ENGINE, expectError } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import { auditActions, createKey, getKey, testClock, updateKey, useKeysServer } from './fixtures.ts';

const t = useKeysServer(testClock());

type Owner = { token: string; workspaceId: string };
const update = (owner: Owner, keyId: string, body: Record<string, unknown>) => updateKey(t, owner, keyId, body);

describe(`renaming and describing a key (${ENGINE})`, () => {
  it('renames it and describes it, answers the key as listed, and audits what changed', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { name: 'deploy', description: 'the CI runner' });
    expect(key.json).toMatchObject({ name: 'deploy', description: 'the CI runner' });

    const renamed = await update(owner, key.id, { name: '  deploy (prod) ', description: 'Runs on the build host' });
    expect(renamed.status, renamed.body).toBe(200);
    expect(renamed.json).toEqual(await getKey(t, owner, key.id));
    expect(renamed.json).toMatchObject({ id: key.id, name: 'deploy (prod)', description: 'Runs on the build host', status: 'active' });

    const cleared = await update(owner, key.id, { name: null, description: null });
    expect(cleared.json).toMatchObject({ name: null, description: null });

    expect((await auditActions(t, owner.workspaceId, 'api_key.updated')).map((e) => e.data)).toEqual([
      { fields: ['name', 'description'], name: { from: 'deploy', to: 'deploy (prod)' } },
      { fields: ['name', 'description'], name: { from: 'deploy (prod)', to: null } },
    ]);
    // Nothing changed, nothing recorded.
    expect((await update(owner, key.id, {})).status).toBe(200);
    expect((await update(owner, key.id, { name: null })).status).toBe(200);
    expect(await auditActions(t, owner.workspaceId, 'api_key.updated')).toHaveLength(2);
  });

  it('a key that stopped working may still be renamed, and stays stopped', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { name: 'old' });
    await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${key.id}`, { token: owner.token });
    const renamed = await update(owner, key.id, { name: 'old (revoked in March)' });
    expect(renamed.json).toMatchObject({ name: 'old (revoked in March)', status: 'revoked', revoked_reason: 'revoked' });
  });

  it('refuses what is not a name or a description, and keys of other workspaces, with the documented errors', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner, { name: 'kept' });
    expectError(await update(owner, key.id, { name: '' }), 400, 'invalid_request', { paths: ['name'] });
    expectError(await update(owner, key.id, { name: 'x'.repeat(65) }), 400, 'invalid_request', { paths: ['name'] });
    expectError(await update(owner, key.id, { name: 'two\nlines' }), 400, 'invalid_request', { paths: ['name'] });
    expectError(await update(owner, key.id, { description: 'x'.repeat(501) }), 400, 'invalid_request', { paths: ['description'] });
    expectError(await update(owner, key.id, { description: 42 }), 400, 'invalid_request', { paths: ['description'] });
    expectError(await update(owner, key.id, { prefix: 'lfk_mine' }), 400, 'invalid_request');
    const outsider = await t.signup();
    const theirs = await createKey(t, outsider, { name: 'theirs' });
    expectError(await update(owner, theirs.id, { name: 'mine now' }), 404, 'api_key_not_found');
    expectError(await update(owner, 'key_nope', { name: 'x' }), 404, 'api_key_not_found');
    expect((await getKey(t, outsider, theirs.id)).name).toBe('theirs');
    expect((await getKey(t, owner, key.id)).name).toBe('kept');
  });
});
