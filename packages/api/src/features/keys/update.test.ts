/**
 * Renaming a key and describing it (issue 28): `apiKeys.update` by an owner. A rename is audited
 * with its before and after; a description is audited as changed (it is the owners' own text, shown
 * on the key's page). Who may call it is the authorization matrix's; the allowlist part is
 * apps/server/test/keys/allowed-ips.test.ts's; the route (`PATCH …/api-keys/{key_id}`, 200) is the
 * REST table's.
 */
import { ENGINE, testClock } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { auditActions } from '../../../test/support/database.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused } from '../../../test/support/refusals.ts';
import { person, testServices } from '../../../test/world.ts';
import { getKey, revokeKey, updateKey } from './keys.fixtures.ts';

const clock = testClock();
let services: Services;
beforeAll(async () => {
  services = await testServices({ now: clock.now });
});

type Owner = { token: string; workspaceId: string };
const update = (owner: Owner, keyId: string, body: Record<string, unknown>) => updateKey(services, owner, keyId, body);

describe(`renaming and describing a key (${ENGINE})`, () => {
  it('renames it and describes it, answers the key as listed, and audits what changed', async () => {
    const owner = await person(services);
    const key = await createKey(services, owner, { name: 'deploy', description: 'the CI runner' });
    expect(key.json).toMatchObject({ name: 'deploy', description: 'the CI runner' });

    const renamed = await update(owner, key.id, { name: '  deploy (prod) ', description: 'Runs on the build host' });
    expect(renamed).toEqual(await getKey(services, owner, key.id));
    expect(renamed).toMatchObject({ id: key.id, name: 'deploy (prod)', description: 'Runs on the build host', status: 'active' });

    const cleared = await update(owner, key.id, { name: null, description: null });
    expect(cleared).toMatchObject({ name: null, description: null });

    expect((await auditActions(services, owner.workspaceId, 'api_key.updated')).map((e) => e.data)).toEqual([
      { fields: ['name', 'description'], name: { from: 'deploy', to: 'deploy (prod)' } },
      { fields: ['name', 'description'], name: { from: 'deploy (prod)', to: null } },
    ]);
    // Nothing changed, nothing recorded.
    expect(await update(owner, key.id, {})).toMatchObject({ id: key.id });
    expect(await update(owner, key.id, { name: null })).toMatchObject({ id: key.id });
    expect(await auditActions(services, owner.workspaceId, 'api_key.updated')).toHaveLength(2);
  });

  it('a key that stopped working may still be renamed, and stays stopped', async () => {
    const owner = await person(services);
    const key = await createKey(services, owner, { name: 'old' });
    await revokeKey(services, owner, key.id);
    const renamed = await update(owner, key.id, { name: 'old (revoked in March)' });
    expect(renamed).toMatchObject({ name: 'old (revoked in March)', status: 'revoked', revoked_reason: 'revoked' });
  });

  it('refuses what is not a name or a description, and keys of other workspaces, with the documented errors', async () => {
    const owner = await person(services);
    const key = await createKey(services, owner, { name: 'kept' });
    await expectRefused(update(owner, key.id, { name: '' }), 400, 'invalid_request', { paths: ['name'] });
    await expectRefused(update(owner, key.id, { name: 'x'.repeat(65) }), 400, 'invalid_request', { paths: ['name'] });
    await expectRefused(update(owner, key.id, { name: 'two\nlines' }), 400, 'invalid_request', { paths: ['name'] });
    await expectRefused(update(owner, key.id, { description: 'x'.repeat(501) }), 400, 'invalid_request', { paths: ['description'] });
    await expectRefused(update(owner, key.id, { description: 42 }), 400, 'invalid_request', { paths: ['description'] });
    await expectRefused(update(owner, key.id, { prefix: 'lfk_mine' }), 400, 'invalid_request');
    const outsider = await person(services);
    const theirs = await createKey(services, outsider, { name: 'theirs' });
    await expectRefused(update(owner, theirs.id, { name: 'mine now' }), 404, 'api_key_not_found');
    await expectRefused(update(owner, 'key_nope', { name: 'x' }), 404, 'api_key_not_found');
    expect((await getKey(services, outsider, theirs.id)).name).toBe('theirs');
    expect((await getKey(services, owner, key.id)).name).toBe('kept');
  });
});
