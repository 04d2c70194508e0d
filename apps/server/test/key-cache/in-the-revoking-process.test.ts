/**
 * Key cache: a revoked key is refused on the very next request in the process that revoked it.
 */
import { generateApiKey } from '@lfk/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, useTestServer } from '@lfk/server/testing';
import { badChecksum, cacheOn, comparable, expectAccepted, expectRefused, probe, revoke, revokeAndSettle } from './fixtures.ts';

describe('in the process that revokes', () => {
  const t = useTestServer({ LFK_KEY_CACHE_TTL: '3600' });
  beforeAll(async () => {
    await cacheOn(t);
  });

  it('a cached key revoked through the API is refused on the very next request, exactly like an unknown key', async () => {
    const { owner, key, id } = await t.signupWithKey();
    const before = t.server.services.apiKeyCache.size.valid;
    expectAccepted(await probe(t, key));
    // Served from memory from now on (for an hour).
    expect(t.server.services.apiKeyCache.size.valid).toBe(before + 1);
    expectAccepted(await probe(t, key));

    await revoke(t, owner, id);
    const next = await probe(t, key);
    expectRefused(next);
    const unknown = await probe(t, generateApiKey().key);
    expect(comparable(next)).toEqual(comparable(unknown));

    // And it stays refused: the refusal is what is remembered now.
    for (let i = 0; i < 5; i++) expect(comparable(await probe(t, key))).toEqual(comparable(unknown));
    const stored = await t.sql<{ revoked_at: unknown }>('select revoked_at from api_keys where id = ?', [id]);
    expect(stored[0]!.revoked_at).not.toBeNull();
  });

  it('with requests in flight during the revoke, every request that starts after the revoke answered is refused', async () => {
    const { owner, key, id } = await t.signupWithKey();
    expectAccepted(await probe(t, key));

    let revokeAnswered = false;
    let stop = false;
    let startedAfter = 0;
    const seen: { startedAfterRevoke: boolean; status: number; code: string }[] = [];
    const worker = async () => {
      // Bounded, in case the revoke never answers.
      while (!stop && seen.length < 20_000) {
        const startedAfterRevoke = revokeAnswered;
        if (startedAfterRevoke) startedAfter++;
        const res = await probe(t, key);
        seen.push({ startedAfterRevoke, status: res.status, code: res.json?.error?.code });
        // A cached answer needs no I/O: yield, or timers and the revoke's own I/O would starve.
        await new Promise((r) => setImmediate(r));
      }
    };
    const workers = Array.from({ length: 20 }, worker);
    // Let the load get going before the revoke.
    await until('requests before the revoke', () => seen.length >= 100);
    await revoke(t, owner, id);
    revokeAnswered = true;
    const atRevoke = seen.length;
    await until('requests after the revoke', () => startedAfter >= 200);
    stop = true;
    await Promise.all(workers);

    const before = seen.filter((s) => !s.startedAfterRevoke);
    const after = seen.filter((s) => s.startedAfterRevoke);
    expect(atRevoke).toBeGreaterThanOrEqual(100);
    expect(after.length).toBeGreaterThanOrEqual(200);
    // Before the revoke answered, a request may see the key either way…
    for (const s of before) expect([`404 form_not_found`, `401 invalid_api_key`]).toContain(`${s.status} ${s.code}`);
    expect(before.filter((s) => s.status === 404).length).toBeGreaterThanOrEqual(100);
    // …after, never accepted.
    expect(after.filter((s) => s.status !== 401 || s.code !== 'invalid_api_key')).toEqual([]);
  });

  it('unknown, revoked and malformed keys are refused alike, every time, cached or not; malformed ones never enter the cache', async () => {
    const { owner, key: revoked, id } = await t.signupWithKey();
    expectAccepted(await probe(t, revoked));
    await revokeAndSettle(t, owner, id);
    const unknown = generateApiKey().key;
    const malformed = [badChecksum(generateApiKey().key), 'lfk_short', 'not-a-key', `lfk_${'x'.repeat(500)}`, `${unknown}x`];
    const cache = t.server.services.apiKeyCache;

    const reference = comparable(await probe(t, generateApiKey().key));
    expect(reference.status).toBe(401);
    expect(JSON.parse(reference.body).error.code).toBe('invalid_api_key');

    // Malformed keys are refused before the cache: nothing is stored for them, however often they come.
    const refusedBefore = cache.size.refused;
    for (let round = 0; round < 3; round++) {
      for (const key of malformed) expect(comparable(await probe(t, key)), key).toEqual(reference);
    }
    expect(cache.size.refused).toBe(refusedBefore);

    // A well-formed unknown key is asked of the database once (uncached), then answered from memory (cached).
    expect(comparable(await probe(t, unknown))).toEqual(reference);
    expect(cache.size.refused).toBe(refusedBefore + 1);
    for (let round = 0; round < 3; round++) expect(comparable(await probe(t, unknown))).toEqual(reference);
    expect(cache.size.refused).toBe(refusedBefore + 1);

    // The revoked key was forgotten when it was revoked; its refusal is cached on first use, then reused.
    expect(comparable(await probe(t, revoked))).toEqual(reference);
    expect(cache.size.refused).toBe(refusedBefore + 2);
    for (let round = 0; round < 3; round++) expect(comparable(await probe(t, revoked))).toEqual(reference);
    expect(cache.size.refused).toBe(refusedBefore + 2);
  });
});
