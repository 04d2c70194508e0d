/**
 * Rolling a key (issue 14): a new key with the same name, its plaintext shown once; the old one
 * works until the grace ends, then is revoked (`rolled`, with `rolled_to`). A revoked key, or one
 * already in its grace, cannot be rolled. The 10-active-keys rule holds under a race of rolls and creates.
 * The route (`POST …/api-keys/{key_id}/roll`, 201) is the REST table's; a body that is not a roll
 * request is apps/server/test/keys/roll.test.ts's.
 */
import { MAX_ACTIVE_KEYS } from '@lfk/vocabulary';
import { DAY, ENGINE, testClock } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { TEST_PASSWORD } from '../../testing.ts';
import { auditActions, sql } from '../../../test/support/database.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';
import { expectKeyRefused, expectKeyWorks, getKey, revokeKey, roll } from './keys.fixtures.ts';

const clock = testClock();
let services: Services;
beforeAll(async () => {
  services = await testServices({ now: clock.now });
});

const activeCount = async (workspaceId: string) =>
  (
    await sql<{ n: number }>(
      services,
      'select count(*)::int as n from api_keys where workspace_id = ? and revoked_at is null and (expires_at is null or expires_at > ?)',
      [workspaceId, clock.now().toISOString()],
    )
  )[0]!.n;

describe(`rolling a key (${ENGINE})`, () => {
  it('without a grace: the new key works at once and the old one is refused on the very next request', async () => {
    const owner = await person(services);
    const old = await createKey(services, owner, { name: 'deploy bot' });
    await expectKeyWorks(services, old.key);
    const rolled = await roll(services, owner, old.id);
    expect(rolled).toMatchObject({ name: 'deploy bot', status: 'active', workspace_id: owner.workspaceId, created_by: owner.userId, expires_at: null });
    expect(rolled.key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    expect(rolled.prefix).toBe(rolled.key.slice(0, 10));
    await expectKeyRefused(services, old.key);
    await expectKeyWorks(services, rolled.key);
    expect(await getKey(services, owner, old.id)).toMatchObject({
      status: 'revoked',
      revoked_reason: 'rolled',
      rolled_to: rolled.id,
      revoked_at: clock.now().toISOString(),
    });
    expect(await getKey(services, owner, rolled.id)).toMatchObject({ status: 'active', name: 'deploy bot', rolled_to: null });
    // The plaintext is in the roll's answer only.
    const listed = await (await callerFor(services, owner.token)).apiKeys.list({ workspace_id: owner.workspaceId });
    expect(JSON.stringify(listed)).not.toContain(rolled.key);
    const [event] = await auditActions(services, owner.workspaceId, 'api_key.rolled');
    expect(event).toMatchObject({ actor_type: 'user', actor_id: owner.userId, target_id: old.id, data: { rolled_to: rolled.id, grace_seconds: 0 } });
    const created = await auditActions(services, owner.workspaceId, 'api_key.created');
    expect(created.at(-1)).toMatchObject({ target_id: rolled.id, data: { rolled_from: old.id } });
  });

  it('with a grace: both keys work until it ends, then the old one is refused and lists as rolled', async () => {
    const owner = await person(services);
    const old = await createKey(services, owner, { name: 'worker' });
    const rolled = await roll(services, owner, old.id, { grace_seconds: 86_400 });
    const graceEnd = new Date(clock.now().getTime() + DAY).toISOString();
    expect(await getKey(services, owner, old.id)).toMatchObject({ status: 'active', expires_at: graceEnd, rolled_to: rolled.id, revoked_reason: null });
    await expectKeyWorks(services, old.key);
    await expectKeyWorks(services, rolled.key);

    // In its grace, the old key cannot be rolled again; the new one can.
    await expectRefused(roll(services, owner, old.id, { grace_seconds: 60 }), 409, 'api_key_already_rolled');
    await expectRefused(roll(services, owner, old.id), 409, 'api_key_already_rolled');

    clock.advance(DAY - 1);
    await expectKeyWorks(services, old.key);
    clock.advance(1);
    await expectKeyRefused(services, old.key);
    await expectKeyWorks(services, rolled.key);
    expect(await getKey(services, owner, old.id)).toMatchObject({ status: 'revoked', revoked_reason: 'rolled', revoked_at: graceEnd });
    // A day on, sudo mode asks the owner to confirm who they are before a roll.
    await (await callerFor(services, owner.token)).auth.reauthenticate({ password: TEST_PASSWORD });
    await expectRefused(roll(services, owner, old.id), 409, 'api_key_revoked');
  });

  it('refuses to roll a revoked key (409), an unknown or malformed id (404), and a grace outside 0…7 days (400)', async () => {
    const owner = await person(services);
    const revoked = await createKey(services, owner);
    await revokeKey(services, owner, revoked.id);
    await expectRefused(roll(services, owner, revoked.id), 409, 'api_key_revoked');
    await expectRefused(roll(services, owner, 'key_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'api_key_not_found');
    await expectRefused(roll(services, owner, 'not-a-key-id'), 404, 'api_key_not_found');
    const outsider = await person(services);
    const theirs = await createKey(services, outsider);
    await expectRefused(roll(services, owner, theirs.id), 404, 'api_key_not_found');
    const key = await createKey(services, owner);
    for (const grace of [-1, 604_801, 1.5, '60']) {
      await expectRefused(roll(services, owner, key.id, { grace_seconds: grace }), 400, 'invalid_request', { paths: ['grace_seconds'], what: String(grace) });
    }
    expect(await roll(services, owner, key.id, { grace_seconds: 604_800 })).toMatchObject({ status: 'active' });
  });

  it('at 10 active keys: a roll with a grace is 429 (both keys would count), a roll without one is allowed', async () => {
    const owner = await person(services);
    const keys = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) keys.push(await createKey(services, owner, { name: `k${i}` }));
    await expectRefused(roll(services, owner, keys[0]!.id, { grace_seconds: 3600 }), 429, 'api_key_limit_reached');
    await expectKeyWorks(services, keys[0]!.key);
    expect(await roll(services, owner, keys[0]!.id, { grace_seconds: 0 })).toMatchObject({ status: 'active' });
    expect(await activeCount(owner.workspaceId)).toBe(MAX_ACTIVE_KEYS);
  });

  it('a race of creates, rolls with a grace and rolls without one at 9 active keys never passes 10', async () => {
    const owner = await person(services);
    const keys = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS - 1; i++) keys.push(await createKey(services, owner, { name: `k${i}` }));
    const asOwner = await callerFor(services, owner.token);
    const creates = Array.from({ length: 6 }, () => outcome(asOwner.apiKeys.create({ workspace_id: owner.workspaceId })));
    const graceful = keys.slice(0, 4).map((k) => outcome(roll(services, owner, k.id, { grace_seconds: 3600 })));
    const immediate = keys.slice(4, 8).map((k) => outcome(roll(services, owner, k.id, { grace_seconds: 0 })));
    const [created, rolledWithGrace, rolledAtOnce] = await Promise.all([Promise.all(creates), Promise.all(graceful), Promise.all(immediate)]);
    // Rolls without a grace free their slot in the same transaction: always allowed.
    expect(rolledAtOnce).toEqual(['done', 'done', 'done', 'done']);
    // One slot was free: exactly one create or graceful roll took it; the others were told the limit.
    const takers = [...created, ...rolledWithGrace];
    expect(takers.filter((r) => r === 'done')).toHaveLength(1);
    expect(takers.filter((r) => r !== 'done')).toEqual(Array(takers.length - 1).fill('429 api_key_limit_reached'));
    expect(await activeCount(owner.workspaceId)).toBe(MAX_ACTIVE_KEYS);
  });
});

describe(`a roll keeps the key's expiry policy (${ENGINE})`, () => {
  it('a key that expires is replaced by one with the same lifetime counted from now; one that never expires, by one that never does', async () => {
    const owner = await person(services);
    const lifetime = 90 * DAY;
    const expiring = await createKey(services, owner, { name: 'trial', expires_at: new Date(clock.now().getTime() + lifetime).toISOString() });
    // Its lifetime as stored: from when it was made to when it expires.
    const stored = Date.parse(expiring.json.expires_at!) - Date.parse(expiring.json.created_at);
    // Ten days into its life, it is rolled: the new key lives as long from the roll, not forever.
    clock.advance(10 * DAY);
    // Ten days on, sudo mode asks the owner to confirm who they are first.
    await (await callerFor(services, owner.token)).auth.reauthenticate({ password: TEST_PASSWORD });
    const rolled = await roll(services, owner, expiring.id);
    expect(rolled.expires_at).toBe(new Date(clock.now().getTime() + stored).toISOString());
    const [created] = (await auditActions(services, owner.workspaceId, 'api_key.created')).filter((e) => e.target_id === rolled.id);
    expect((typeof created!.data === 'string' ? JSON.parse(created!.data) : created!.data).expires_at).toBe(rolled.expires_at);

    const forever = await createKey(services, owner, { name: 'forever' });
    const rolledForever = await roll(services, owner, forever.id);
    expect(rolledForever.expires_at).toBeNull();
  });

  it('a roll may set the new key’s expiry; one out of range is refused and nothing is rolled', async () => {
    const owner = await person(services);
    const old = await createKey(services, owner, { name: 'chosen' });
    const tooFar = await expectRefused(
      roll(services, owner, old.id, { expires_at: new Date(clock.now().getTime() + 400 * DAY).toISOString() }),
      400,
      'invalid_request',
    );
    expect(tooFar.details).toEqual([{ path: 'expires_at', message: expect.stringContaining('Must be between') }]);
    expect(await getKey(services, owner, old.id)).toMatchObject({ status: 'active', rolled_to: null });

    const chosen = new Date(clock.now().getTime() + 30 * DAY).toISOString();
    const rolled = await roll(services, owner, old.id, { expires_at: chosen });
    expect(rolled.expires_at).toBe(chosen);
  });
});
