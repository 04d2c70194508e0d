/**
 * Keys that end on their own (issue 14): `expires_at` on create, 1 hour to 1 year ahead; at that
 * instant the key answers the identical 401, from the cache too and on every replica, and lists as
 * revoked (`expired`) before any sweep has written it down; the sweep then records it once.
 */
import { generateApiKey, sweepKeyLifecycle } from '@lfk/api';
import { ENGINE, expectError, PASSWORD, TEST_DATABASE_URL, until } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import {
  auditActions,
  countStatements,
  createKey,
  DAY,
  expectAccepted,
  expectRefused,
  getKey,
  HOUR,
  probe,
  refusalBody,
  roll,
  secondReplica,
  useKeysServer,
  testClock,
} from './fixtures.ts';

// Starts at the real time: sessions signed up here were stamped by it.
const clock = testClock();
const t = useKeysServer(clock);

describe(`expires_at on create (${ENGINE})`, () => {
  it('takes 1 hour to 1 year ahead of the server clock, and refuses anything else with invalid_request', async () => {
    const owner = await t.signup();
    const now = clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    for (const bad of [at(HOUR - 1000), at(-DAY), at(366 * DAY), 'tomorrow', '2031-03-02']) {
      const res = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: { expires_at: bad } });
      expectError(res, 400, 'invalid_request', { paths: ['expires_at'], what: bad });
    }
    const soonest = await createKey(t, owner, { name: 'hour', expires_at: at(HOUR) });
    expect(soonest.json.expires_at).toBe(at(HOUR));
    // An offset is taken and answered in UTC.
    const inUtc = new Date(Math.floor((now + 100 * DAY) / 1000) * 1000);
    const inParis = new Date(inUtc.getTime() + 2 * HOUR).toISOString().replace(/\.000Z$/, '+02:00');
    const withOffset = await createKey(t, owner, { expires_at: inParis });
    expect(withOffset.json.expires_at).toBe(inUtc.toISOString());
    const listed = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token });
    expect(listed.json.data.map((k: { expires_at: string | null }) => k.expires_at)).toEqual([inUtc.toISOString(), at(HOUR)]);
    const latest = await createKey(t, owner, { expires_at: at(365 * DAY) });
    expect(latest.json.expires_at).toBe(at(365 * DAY));
    const never = await createKey(t, owner);
    expect(never.json.expires_at).toBeNull();
  });
});

describe(`an expiring key at its instant (${ENGINE})`, () => {
  it('works until the instant, served from memory, then answers the identical 401 and lists as revoked: expired', async () => {
    const owner = await t.signup();
    const created = await createKey(t, owner, { name: 'short-lived', expires_at: new Date(clock.now().getTime() + 2 * HOUR).toISOString() });
    const expiresAt = new Date(created.json.expires_at).getTime();
    expectAccepted(await probe(t, created.key));
    // Half an hour before, read again (the hour the cache trusts an answer has passed): cached until the instant, no longer.
    clock.set(new Date(expiresAt - HOUR / 2));
    expectAccepted(await probe(t, created.key));

    // Just before: still good, and answered from the cache (no statement reads api_keys).
    clock.set(new Date(expiresAt - 1));
    const counted = countStatements(t.server);
    try {
      expectAccepted(await probe(t, created.key));
      expect(counted.statements.filter((sql) => sql.includes('api_keys'))).toEqual([]);
    } finally {
      counted.stop();
    }

    // At the instant: refused, byte for byte as an unknown key is, with no sweep having run.
    clock.set(new Date(expiresAt));
    const refused = await probe(t, created.key);
    expectRefused(refused);
    const unknown = await probe(t, generateApiKey().key);
    expect(refusalBody(refused)).toBe(refusalBody(unknown));
    const [row] = await t.sql<{ revoked_at: unknown }>('select revoked_at from api_keys where id = ?', [created.id]);
    expect(row!.revoked_at).toBeNull();

    const listed = await getKey(t, owner, created.id);
    expect(listed).toMatchObject({ status: 'revoked', revoked_reason: 'expired', revoked_at: created.json.expires_at, rolled_to: null });

    // The sweep writes it down as it was listed, and records one api_key.expired event however often it runs.
    await Promise.all([sweepKeyLifecycle(t.server.db, clock.now(), 'http://lfk.test'), sweepKeyLifecycle(t.server.db, clock.now(), 'http://lfk.test')]);
    await sweepKeyLifecycle(t.server.db, clock.now(), 'http://lfk.test');
    const [swept] = await t.sql<{ revoked_reason: string; revoked_at: string | Date }>('select revoked_reason, revoked_at from api_keys where id = ?', [
      created.id,
    ]);
    expect(swept!.revoked_reason).toBe('expired');
    expect(new Date(swept!.revoked_at).toISOString()).toBe(created.json.expires_at);
    expect(await getKey(t, owner, created.id)).toEqual(listed);
    const events = await auditActions(t, owner.workspaceId, 'api_key.expired');
    expect(events).toEqual([{ actor_type: 'system', actor_id: 'lfk', target_id: created.id, data: { expired_at: created.json.expires_at } }]);
    const log = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/audit-events`, { token: owner.token });
    expect(log.json.data.find((e: { action: string }) => e.action === 'api_key.expired')?.data).toEqual({ expired_at: created.json.expires_at });
    expectRefused(await probe(t, created.key));
  });

  it('an expired key no longer counts toward the 10, and cannot be revoked again or rolled', async () => {
    const owner = await t.signup();
    const expiring = await createKey(t, owner, { expires_at: new Date(clock.now().getTime() + HOUR).toISOString() });
    for (let i = 0; i < 9; i++) await createKey(t, owner);
    expectError(await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { token: owner.token, body: {} }), 429, 'api_key_limit_reached');
    clock.advance(HOUR);
    // An hour on, sudo mode asks the owner to confirm who they are before making a key.
    expect((await t.request('POST', '/v1/auth/reauthenticate', { token: owner.token, body: { password: PASSWORD } })).status).toBe(204);
    await createKey(t, owner);
    expectError(await roll(t, owner, expiring.id), 409, 'api_key_revoked');
    const revoke = await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${expiring.id}`, { token: owner.token });
    expect(revoke.status).toBe(204);
    expect(await getKey(t, owner, expiring.id)).toMatchObject({ status: 'revoked', revoked_reason: 'expired' });
  });
});

describe.runIf(!!TEST_DATABASE_URL)('on a second replica (PostgreSQL)', () => {
  it('refuses an expiring key at its instant from its own cache, with no sweep and no notification', async () => {
    const b = await secondReplica(t, clock);
    try {
      const owner = await t.signup();
      const created = await createKey(t, owner, { expires_at: new Date(clock.now().getTime() + 3 * HOUR).toISOString() });
      expectAccepted(await b.probe(created.key));
      const generation = b.server.services.apiKeyCache.generation();
      clock.set(new Date(new Date(created.json.expires_at).getTime() - 1));
      expectAccepted(await b.probe(created.key));
      clock.set(new Date(created.json.expires_at));
      const refused = await b.probe(created.key);
      expect(refused.status).toBe(401);
      expect(refused.json.error.code).toBe('invalid_api_key');
      // Nothing told B: the stored expiry, read with the key, refused it.
      expect(b.server.services.apiKeyCache.generation()).toBe(generation);
      const [row] = await t.sql<{ revoked_at: unknown }>('select revoked_at from api_keys where id = ?', [created.id]);
      expect(row!.revoked_at).toBeNull();
    } finally {
      await b.close();
    }
  });

  it('hears that a roll shortened a key it holds, and refuses it when the grace ends', async () => {
    const b = await secondReplica(t, clock);
    try {
      const owner = await t.signup();
      const old = await createKey(t, owner);
      expectAccepted(await b.probe(old.key));
      const generation = b.server.services.apiKeyCache.generation();
      const rolled = await roll(t, owner, old.id, { grace_seconds: 600 });
      expect(rolled.status).toBe(201);
      await until('B to hear that the old key changed', () => b.server.services.apiKeyCache.generation() > generation);
      expectAccepted(await b.probe(old.key));
      expectAccepted(await b.probe(rolled.json.key));
      clock.advance(600_000);
      const refused = await b.probe(old.key);
      expect(refused.status).toBe(401);
      expectAccepted(await b.probe(rolled.json.key));
    } finally {
      await b.close();
    }
  });
});
