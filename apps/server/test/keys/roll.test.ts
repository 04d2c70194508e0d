/**
 * Rolling a key (issue 14): a new key with the same name, its plaintext shown once; the old one
 * works until the grace ends, then is revoked (`rolled`, with `rolled_to`). A revoked key, or one
 * already in its grace, cannot be rolled. The 10-active-keys rule holds under a race of rolls and creates.
 */
import { MAX_ACTIVE_KEYS } from '@lfk/db/constants';
import { ENGINE, expectError, } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import {
  auditActions,
  createKey,
  DAY,
  expectAccepted,
  expectRefused,
  getKey,
  probe,
  roll,
  useKeysServer,
  testClock,
} from './fixtures.ts';

const clock = testClock();
const t = useKeysServer(clock);

const activeCount = async (workspaceId: string) =>
  (await t.sql<{ n: number }>(
    'select count(*)::int as n from api_keys where workspace_id = ? and revoked_at is null and (expires_at is null or expires_at > ?)',
    [workspaceId, clock.now().toISOString()],
  ))[0]!.n;

describe(`rolling a key (${ENGINE})`, () => {
  it('without a grace: the new key works at once and the old one is refused on the very next request', async () => {
    const owner = await t.signup();
    const old = await createKey(t, owner, { name: 'deploy bot' });
    expectAccepted(await probe(t, old.key));
    const rolled = await roll(t, owner, old.id);
    expect(rolled.status).toBe(201);
    expect(rolled.json).toMatchObject({ name: 'deploy bot', status: 'active', workspace_id: owner.workspaceId, created_by: owner.userId, expires_at: null });
    expect(rolled.json.key).toMatch(/^lfk_[0-9A-Za-z]{36}$/);
    expect(rolled.json.prefix).toBe(rolled.json.key.slice(0, 10));
    expectRefused(await probe(t, old.key));
    expectAccepted(await probe(t, rolled.json.key));
    expect(await getKey(t, owner, old.id)).toMatchObject({
      status: 'revoked',
      revoked_reason: 'rolled',
      rolled_to: rolled.json.id,
      revoked_at: clock.now().toISOString(),
    });
    expect(await getKey(t, owner, rolled.json.id)).toMatchObject({ status: 'active', name: 'deploy bot', rolled_to: null });
    // The plaintext is in the roll's answer only.
    const listed = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(listed.body).not.toContain(rolled.json.key);
    const [event] = await auditActions(t, owner.workspaceId, 'api_key.rolled');
    expect(event).toMatchObject({ actor_type: 'user', actor_id: owner.userId, target_id: old.id, data: { rolled_to: rolled.json.id, grace_seconds: 0 } });
    const created = await auditActions(t, owner.workspaceId, 'api_key.created');
    expect(created.at(-1)).toMatchObject({ target_id: rolled.json.id, data: { rolled_from: old.id } });
  });

  it('with a grace: both keys work until it ends, then the old one is refused and lists as rolled', async () => {
    const owner = await t.signup();
    const old = await createKey(t, owner, { name: 'worker' });
    const rolled = await roll(t, owner, old.id, { grace_seconds: 86_400 });
    expect(rolled.status).toBe(201);
    const graceEnd = new Date(clock.now().getTime() + DAY).toISOString();
    expect(await getKey(t, owner, old.id)).toMatchObject({ status: 'active', expires_at: graceEnd, rolled_to: rolled.json.id, revoked_reason: null });
    expectAccepted(await probe(t, old.key));
    expectAccepted(await probe(t, rolled.json.key));

    // In its grace, the old key cannot be rolled again; the new one can.
    expectError(await roll(t, owner, old.id, { grace_seconds: 60 }), 409, 'api_key_already_rolled');
    expectError(await roll(t, owner, old.id), 409, 'api_key_already_rolled');

    clock.advance(DAY - 1);
    expectAccepted(await probe(t, old.key));
    clock.advance(1);
    expectRefused(await probe(t, old.key));
    expectAccepted(await probe(t, rolled.json.key));
    expect(await getKey(t, owner, old.id)).toMatchObject({ status: 'revoked', revoked_reason: 'rolled', revoked_at: graceEnd });
    expectError(await roll(t, owner, old.id), 409, 'api_key_revoked');
  });

  it('refuses to roll a revoked key (409), an unknown or malformed id (404), and a grace outside 0…7 days (400)', async () => {
    const owner = await t.signup();
    const revoked = await createKey(t, owner);
    expect((await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${revoked.id}`, { token: owner.token })).status).toBe(204);
    expectError(await roll(t, owner, revoked.id), 409, 'api_key_revoked');
    expectError(await roll(t, owner, 'key_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'api_key_not_found');
    expectError(await roll(t, owner, 'not-a-key-id'), 404, 'api_key_not_found');
    const outsider = await t.signup();
    const theirs = await createKey(t, outsider);
    expectError(await roll(t, owner, theirs.id), 404, 'api_key_not_found');
    const key = await createKey(t, owner);
    for (const grace of [-1, 604_801, 1.5, '60']) {
      expectError(await roll(t, owner, key.id, { grace_seconds: grace }), 400, 'invalid_request', { paths: ['grace_seconds'] });
    }
    expect((await roll(t, owner, key.id, { grace_seconds: 604_800 })).status).toBe(201);
  });

  it('a body that is not a roll request: 400 invalid_json, 400 invalid_request, 415 — and the key is not rolled', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    const url = `/v1/workspaces/${owner.workspaceId}/api-keys/${key.id}/roll`;
    const send = (raw: string, contentType = 'application/json') => t.request('POST', url, { token: owner.token, raw, headers: { 'content-type': contentType } });
    expectError(await send('{"grace_seconds":'), 400, 'invalid_json');
    for (const raw of ['[]', '"x"', '42']) expectError(await send(raw), 400, 'invalid_request', { what: raw });
    expectError(await send('{"grace_seconds":0,"expires_at":"2030-01-01T00:00:00Z"}'), 400, 'invalid_request');
    expectError(await send('{"__proto__":{"admin":true},"grace_seconds":0}'), 400, 'invalid_request');
    expectError(await send('grace_seconds=0', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    expect(await getKey(t, owner, key.id)).toMatchObject({ status: 'active', rolled_to: null });
    // An empty body is no input: the defaults, a roll without a grace.
    expect((await send('')).status).toBe(201);
  });

  it('at 10 active keys: a roll with a grace is 429 (both keys would count), a roll without one is allowed', async () => {
    const owner = await t.signup();
    const keys = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) keys.push(await createKey(t, owner, { name: `k${i}` }));
    expectError(await roll(t, owner, keys[0]!.id, { grace_seconds: 3600 }), 429, 'api_key_limit_reached');
    expectAccepted(await probe(t, keys[0]!.key));
    const rolled = await roll(t, owner, keys[0]!.id, { grace_seconds: 0 });
    expect(rolled.status).toBe(201);
    expect(await activeCount(owner.workspaceId)).toBe(MAX_ACTIVE_KEYS);
  });

  it('a race of creates, rolls with a grace and rolls without one at 9 active keys never passes 10', async () => {
    const owner = await t.signup();
    const keys = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS - 1; i++) keys.push(await createKey(t, owner, { name: `k${i}` }));
    const creates = Array.from({ length: 6 }, () => t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: {} }));
    const graceful = keys.slice(0, 4).map((k) => roll(t, owner, k.id, { grace_seconds: 3600 }));
    const immediate = keys.slice(4, 8).map((k) => roll(t, owner, k.id, { grace_seconds: 0 }));
    const [created, rolledWithGrace, rolledAtOnce] = await Promise.all([Promise.all(creates), Promise.all(graceful), Promise.all(immediate)]);
    // Rolls without a grace free their slot in the same transaction: always allowed.
    expect(rolledAtOnce.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    // One slot was free: exactly one create or graceful roll took it; the others were told the limit.
    const takers = [...created, ...rolledWithGrace];
    expect(takers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const refused of takers.filter((r) => r.status !== 201)) expectError(refused, 429, 'api_key_limit_reached');
    expect(await activeCount(owner.workspaceId)).toBe(MAX_ACTIVE_KEYS);
  });
});

describe(`a roll keeps the key's expiry policy (${ENGINE})`, () => {
  it("a key that expires is replaced by one with the same lifetime counted from now; one that never expires, by one that never does", async () => {
    const owner = await t.signup();
    const lifetime = 90 * DAY;
    const expiring = await createKey(t, owner, { name: 'trial', expires_at: new Date(clock.now().getTime() + lifetime).toISOString() });
    // Its lifetime as stored: from when it was made to when it expires.
    const stored = Date.parse(expiring.json.expires_at) - Date.parse(expiring.json.created_at);
    // Ten days into its life, it is rolled: the new key lives as long from the roll, not forever.
    clock.advance(10 * DAY);
    const rolled = await roll(t, owner, expiring.id);
    expect(rolled.status, rolled.body).toBe(201);
    expect(rolled.json.expires_at).toBe(new Date(clock.now().getTime() + stored).toISOString());
    const [created] = (await auditActions(t, owner.workspaceId, 'api_key.created')).filter((e) => e.target_id === rolled.json.id);
    expect((typeof created!.data === 'string' ? JSON.parse(created!.data) : created!.data).expires_at).toBe(rolled.json.expires_at);

    const forever = await createKey(t, owner, { name: 'forever' });
    const rolledForever = await roll(t, owner, forever.id);
    expect(rolledForever.json.expires_at).toBeNull();
  });

  it('a roll may set the new key’s expiry; one out of range is refused and nothing is rolled', async () => {
    const owner = await t.signup();
    const old = await createKey(t, owner, { name: 'chosen' });
    const tooFar = await roll(t, owner, old.id, { expires_at: new Date(clock.now().getTime() + 400 * DAY).toISOString() });
    expectError(tooFar, 400, 'invalid_request');
    expect(tooFar.json.error.details).toEqual([{ path: 'expires_at', message: expect.stringContaining('Must be between') }]);
    expect(await getKey(t, owner, old.id)).toMatchObject({ status: 'active', rolled_to: null });

    const chosen = new Date(clock.now().getTime() + 30 * DAY).toISOString();
    const rolled = await roll(t, owner, old.id, { expires_at: chosen });
    expect(rolled.status, rolled.body).toBe(201);
    expect(rolled.json.expires_at).toBe(chosen);
  });
});
