import { describe, expect, it } from 'vitest';
import { ApiKeyCache } from '../src/credentials/api-key-cache.ts';
import type { KeyVerdict } from '../src/credentials/api-key-cache.ts';

/** A key that works, as the database would have judged it. */
const principal = (n: number | string): KeyVerdict => ({
  usable: true,
  principal: { kind: 'api_key', keyId: `key_${n}`, workspaceId: `ws_${n}` },
  allowlist: null,
});

/** A cache whose clock the test moves by hand. */
function cacheAt(options: { maxEntries: number; ttlMs: number }) {
  const clock = { now: 1_000_000 };
  const cache = new ApiKeyCache({ ...options, now: () => clock.now });
  return { cache, clock };
}

describe('ApiKeyCache', () => {
  it('answers undefined for a hash it was never told about', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    expect(cache.lookup('h')).toBeUndefined();
    expect(cache.size).toEqual({ valid: 0, refused: 0 });
  });

  it('keeps valid principals and refusals apart, by hash: a stopped key with why, a hash of no key as null', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    cache.store('good', principal(1), cache.generation());
    cache.store('bad', null, cache.generation());
    cache.store('old', { usable: false, keyId: 'key_2', reason: 'rolled' }, cache.generation());
    expect(cache.lookup('good')).toEqual(principal(1));
    expect(cache.lookup('bad')).toBeNull();
    expect(cache.lookup('old')).toEqual({ usable: false, keyId: 'key_2', reason: 'rolled' });
    expect(cache.lookup('other')).toBeUndefined();
    expect(cache.size).toEqual({ valid: 1, refused: 2 });
    cache.forget('old');
    expect(cache.size).toEqual({ valid: 1, refused: 1 });
  });

  it('trusts an answer for exactly the TTL, then asks the database again', () => {
    const { cache, clock } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    const storedAt = clock.now;
    cache.store('good', principal(1), cache.generation());
    cache.store('bad', null, cache.generation());

    clock.now = storedAt + 999;
    expect(cache.lookup('good')).toEqual(principal(1));
    expect(cache.lookup('bad')).toBeNull();

    clock.now = storedAt + 1000;
    expect(cache.lookup('good')).toBeUndefined();
    expect(cache.lookup('bad')).toBeUndefined();
    // Expired entries are gone, not merely hidden.
    expect(cache.size).toEqual({ valid: 0, refused: 0 });
    clock.now = storedAt;
    expect(cache.lookup('good')).toBeUndefined();
  });

  it('storing again restarts the TTL', () => {
    const { cache, clock } = cacheAt({ maxEntries: 10, ttlMs: 1000 });
    cache.store('good', principal(1), cache.generation());
    clock.now += 800;
    cache.store('good', principal(1), cache.generation());
    clock.now += 800;
    expect(cache.lookup('good')).toEqual(principal(1));
    clock.now += 200;
    expect(cache.lookup('good')).toBeUndefined();
  });

  it('is bounded per kind: past maxEntries the oldest inserted goes, whether or not it was read', () => {
    const { cache } = cacheAt({ maxEntries: 3, ttlMs: 60_000 });
    for (const n of [1, 2, 3]) cache.store(`v${n}`, principal(n), cache.generation());
    // Reading v1 does not protect it: the order is insertion order.
    expect(cache.lookup('v1')).toEqual(principal(1));
    cache.store('v4', principal(4), cache.generation());
    expect(cache.size.valid).toBe(3);
    expect(cache.lookup('v1')).toBeUndefined();
    expect([cache.lookup('v2'), cache.lookup('v3'), cache.lookup('v4')]).toEqual([principal(2), principal(3), principal(4)]);

    // Storing a held key again moves it to the newest place and evicts nothing.
    cache.store('v2', principal(2), cache.generation());
    expect(cache.size.valid).toBe(3);
    expect([cache.lookup('v2'), cache.lookup('v3'), cache.lookup('v4')]).toEqual([principal(2), principal(3), principal(4)]);
    cache.store('v5', principal(5), cache.generation());
    expect(cache.lookup('v3')).toBeUndefined();
    expect([cache.lookup('v2'), cache.lookup('v4'), cache.lookup('v5')]).toEqual([principal(2), principal(4), principal(5)]);
  });

  it('a flood of refused keys cannot push the valid ones out, and stays bounded itself', () => {
    const { cache } = cacheAt({ maxEntries: 3, ttlMs: 60_000 });
    for (const n of [1, 2, 3]) cache.store(`v${n}`, principal(n), cache.generation());
    for (let i = 0; i < 1000; i++) cache.store(`bad${i}`, null, cache.generation());
    expect(cache.size).toEqual({ valid: 3, refused: 3 });
    expect([cache.lookup('v1'), cache.lookup('v2'), cache.lookup('v3')]).toEqual([principal(1), principal(2), principal(3)]);
    // The newest three refusals are the ones held.
    expect([cache.lookup('bad997'), cache.lookup('bad998'), cache.lookup('bad999')]).toEqual([null, null, null]);
    expect(cache.lookup('bad0')).toBeUndefined();
    expect(cache.lookup('bad996')).toBeUndefined();
  });

  it('forget drops the hash from both kinds', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 60_000 });
    cache.store('h', principal(1), cache.generation());
    cache.store('h2', null, cache.generation());
    cache.forget('h');
    cache.forget('h2');
    expect(cache.lookup('h')).toBeUndefined();
    expect(cache.lookup('h2')).toBeUndefined();
    expect(cache.size).toEqual({ valid: 0, refused: 0 });
  });

  it('drops an answer read before a forget (a stale generation), and takes one read after it', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 60_000 });
    const before = cache.generation();
    // The database said "valid", but the key was revoked (and forgotten) while the answer travelled.
    cache.forget('h');
    cache.store('h', principal(1), before);
    expect(cache.lookup('h')).toBeUndefined();
    cache.store('h', null, before);
    expect(cache.lookup('h')).toBeUndefined();
    expect(cache.size).toEqual({ valid: 0, refused: 0 });

    // Any forget counts, not just one of the same hash.
    const racing = cache.generation();
    cache.forget('some other hash');
    cache.store('h', principal(1), racing);
    expect(cache.lookup('h')).toBeUndefined();

    const after = cache.generation();
    cache.store('h', principal(1), after);
    expect(cache.lookup('h')).toEqual(principal(1));
  });

  it('suspended, it answers nothing and stores nothing; resumed, it works again, without what it held', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 60_000 });
    cache.store('held', principal(1), cache.generation());
    cache.store('refused', null, cache.generation());
    const beforeSuspend = cache.generation();

    cache.suspend();
    expect(cache.lookup('held')).toBeUndefined();
    expect(cache.lookup('refused')).toBeUndefined();
    cache.store('during', principal(2), cache.generation());
    cache.store('during-refused', null, cache.generation());
    expect(cache.lookup('during')).toBeUndefined();
    expect(cache.size).toEqual({ valid: 0, refused: 0 });
    const duringSuspension = cache.generation();

    cache.resume();
    // What was held before the suspension may have been revoked unheard: it is gone.
    expect(cache.lookup('held')).toBeUndefined();
    expect(cache.lookup('refused')).toBeUndefined();
    expect(cache.lookup('during')).toBeUndefined();
    // Reads begun before the resume (while revocations could go unheard) are not stored.
    cache.store('old read', principal(3), beforeSuspend);
    cache.store('suspended read', principal(4), duringSuspension);
    expect(cache.lookup('old read')).toBeUndefined();
    expect(cache.lookup('suspended read')).toBeUndefined();
    // Fresh reads are.
    cache.store('fresh', principal(5), cache.generation());
    cache.store('fresh-refused', null, cache.generation());
    expect(cache.lookup('fresh')).toEqual(principal(5));
    expect(cache.lookup('fresh-refused')).toBeNull();
  });

  it('suspending twice needs one resume; resuming when not suspended changes nothing held', () => {
    const { cache } = cacheAt({ maxEntries: 10, ttlMs: 60_000 });
    cache.suspend();
    cache.suspend();
    cache.resume();
    cache.store('h', principal(1), cache.generation());
    expect(cache.lookup('h')).toEqual(principal(1));
    cache.resume();
    expect(cache.lookup('h')).toEqual(principal(1));
  });

  it.each([
    { maxEntries: 0, ttlMs: 60_000 },
    { maxEntries: 10, ttlMs: 0 },
    { maxEntries: 0, ttlMs: 0 },
  ])('is off with %o: nothing is stored or answered', (options) => {
    const { cache } = cacheAt(options);
    cache.store('good', principal(1), cache.generation());
    cache.store('bad', null, cache.generation());
    expect(cache.lookup('good')).toBeUndefined();
    expect(cache.lookup('bad')).toBeUndefined();
    expect(cache.size).toEqual({ valid: 0, refused: 0 });
    cache.resume();
    cache.store('good', principal(1), cache.generation());
    expect(cache.lookup('good')).toBeUndefined();
  });

  it('one entry is a working cache', () => {
    const { cache } = cacheAt({ maxEntries: 1, ttlMs: 60_000 });
    cache.store('a', principal(1), cache.generation());
    expect(cache.lookup('a')).toEqual(principal(1));
    cache.store('b', principal(2), cache.generation());
    expect(cache.lookup('a')).toBeUndefined();
    expect(cache.lookup('b')).toEqual(principal(2));
    expect(cache.size).toEqual({ valid: 1, refused: 0 });
  });
});
