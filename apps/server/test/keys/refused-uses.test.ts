/**
 * "Is anything still using the old key?" (issue 28): requests that present a known key and are
 * refused are counted as that key's, per UTC day and by why (revoked, expired, rolled, leaked,
 * address not allowed), in the same batches as accepted ones, never on the request path. A refused
 * known key is not a guess: a forgotten worker on a rolled key cannot hold its host's address back
 * and lock the new key out, while keys that match nothing stay limited per address.
 */
import { createHash } from 'node:crypto';
import { generateApiKey } from '@lfk/api';
import { ApiKey } from '@lfk/db';
import { ENGINE, expectError } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';
import {
  countStatements,
  createKey,
  DAY,
  expectAccepted,
  expectRefused,
  getKey,
  HOUR,
  NO_REFUSALS,
  PROBE,
  revokeAndSettle,
  roll,
  testClock,
  usageToday,
  useKeysServer,
} from './fixtures.ts';

const clock = testClock();
// The default limit on guesses (20 a minute per address), stated here because the test leans on it.
const t = useKeysServer(clock, { LFK_RATE_LIMIT_KEY_FAILURES: '20/1m' });

/** A keyed request from `from` (inject's client address): 404 when the key is accepted, 401 when refused. */
const probeFrom = (from: string, key: string) => t.request('GET', `/v1/forms/${PROBE}`, { token: key, remoteAddress: from });

describe(`refused uses, counted as the key's own (${ENGINE})`, () => {
  it('a revoked key still tried shows up: in its usage by reason, and in the key list', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    expectAccepted(await probeFrom('10.9.0.1', key.key));
    // Settled: on PostgreSQL the revocation's own notification, heard later, would forget the cached refusal.
    await revokeAndSettle(t, owner, key.id);
    const counted = countStatements(t.server);
    try {
      for (let i = 0; i < 3; i++) expectRefused(await probeFrom('10.9.0.1', key.key));
      // Counted in memory as the key's own. The one write is the address's bucket of refused keys,
      // touched once (when the database was asked) counting nothing, as an unknown key's refusal
      // writes it (issue 50: the two must cost alike); the cached refusals after it write nothing.
      expect(counted.writes()).toHaveLength(1);
      expect(counted.writes()[0]).toMatch(/^insert into rate_limit_buckets/);
    } finally {
      counted.stop();
    }
    expect(await usageToday(t, owner, key.id)).toEqual({ date: clock.now().toISOString().slice(0, 10), requests: 1, refused: { ...NO_REFUSALS, revoked: 3 } });
    expect(await getKey(t, owner, key.id)).toMatchObject({ status: 'revoked', uses_today: { requests: 1, refused: 3 } });
    // Refusals are not uses: where it was last used is where it was last accepted.
    expect((await getKey(t, owner, key.id)).last_used_ip).toBe('10.9.0.1');
  });

  it('counts each reason as its own: expired, rolled, leaked', async () => {
    const owner = await t.signup();
    const expiring = await createKey(t, owner, { expires_at: new Date(clock.now().getTime() + 2 * HOUR).toISOString() });
    const rolled = await createKey(t, owner);
    const leaked = await createKey(t, owner);
    expect((await roll(t, owner, rolled.id)).status).toBe(201);
    // A secret scanner's report revokes it as `leaked` (seeded through the repository the report uses).
    const revoked = await t.server.db.fork().getRepository(ApiKey).revokeLeaked(createHash('sha256').update(leaked.key).digest('hex'), clock.now());
    expect(revoked?.id).toBe(leaked.id);
    clock.advance(3 * HOUR);

    expectRefused(await probeFrom('10.9.0.2', expiring.key));
    for (let i = 0; i < 2; i++) expectRefused(await probeFrom('10.9.0.2', rolled.key));
    for (let i = 0; i < 4; i++) expectRefused(await probeFrom('10.9.0.2', leaked.key));
    expect((await usageToday(t, owner, expiring.id)).refused).toEqual({ ...NO_REFUSALS, expired: 1 });
    expect((await usageToday(t, owner, rolled.id)).refused).toEqual({ ...NO_REFUSALS, rolled: 2 });
    expect((await usageToday(t, owner, leaked.id)).refused).toEqual({ ...NO_REFUSALS, leaked: 4 });
    // Each body said the same thing: the caller learns nothing of why.
    const bodies = await Promise.all([expiring.key, rolled.key, leaked.key, generateApiKey().key].map(async (key) => (await probeFrom('10.9.0.2', key)).json));
    expect(new Set(bodies.map((body) => JSON.stringify({ ...body, error: { ...body.error, request_id: undefined } }))).size).toBe(1);
  });

  it('refusals are counted per UTC day, accepted and refused side by side', async () => {
    const owner = await t.signup();
    const key = await createKey(t, owner);
    expectAccepted(await probeFrom('10.9.0.3', key.key));
    await t.server.services.keyUses.flush();
    clock.advance(DAY);
    expect((await t.request('DELETE', `/v1/workspaces/${owner.workspaceId}/api-keys/${key.id}`, { token: owner.token })).status).toBe(204);
    expectRefused(await probeFrom('10.9.0.3', key.key));
    await t.server.services.keyUses.flush();
    const res = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys/${key.id}/usage?days=2`, { token: owner.token });
    expect(res.json.data.map((d: { requests: number; refused: { revoked: number } }) => [d.requests, d.refused.revoked])).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('a forgotten worker on a rolled key does not lock the new key out of its host, and guesses are still limited', async () => {
    const owner = await t.signup();
    const old = await createKey(t, owner, { name: 'worker' });
    const rolled = await roll(t, owner, old.id, { grace_seconds: 60 });
    expect(rolled.status).toBe(201);
    clock.advance(61_000);
    const host = '10.9.0.4';
    // The trace: the old key ten times for each use of the new one, twelve rounds.
    const answers: number[] = [];
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 10; i++) expectRefused(await probeFrom(host, old.key));
      answers.push((await probeFrom(host, rolled.json.key)).status);
    }
    expect(answers).toEqual(Array(12).fill(404));
    expect((await usageToday(t, owner, old.id)).refused.rolled).toBe(120);
    expect((await usageToday(t, owner, rolled.json.id)).requests).toBe(12);
    // Keys that match nothing are guesses: 20 a minute from the host, then held back.
    for (let i = 0; i < 20; i++) expectRefused(await probeFrom(host, generateApiKey().key));
    expectError(await probeFrom(host, generateApiKey().key), 429, 'rate_limited');
  });
});
