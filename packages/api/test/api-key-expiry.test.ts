import { keyStateAt } from '@lfk/db';
import { describe, expect, it } from 'vitest';
import { ApiKeyCache } from '../src/credentials/api-key-cache.ts';
import type { KeyVerdict } from '../src/credentials/api-key-cache.ts';
import { initialReminder, usageDays } from '../src/features/keys/rules.ts';

const principal: KeyVerdict = { usable: true, principal: { kind: 'api_key', keyId: 'key_1', workspaceId: 'ws_1' }, allowlist: null };
const DAY = 86_400_000;

describe('a cached key never outlives its expiry (issue 14)', () => {
  it('is answered until the instant the key expires, even with a longer TTL, then the database is asked', () => {
    const clock = { now: 1_000_000 };
    const cache = new ApiKeyCache({ maxEntries: 10, ttlMs: 3_600_000, now: () => clock.now });
    cache.store('expiring', principal, cache.generation(), clock.now + 5000);
    cache.store('forever', principal, cache.generation(), null);
    clock.now += 4999;
    expect(cache.lookup('expiring')).toEqual(principal);
    clock.now += 1;
    expect(cache.lookup('expiring')).toBeUndefined();
    expect(cache.lookup('forever')).toEqual(principal);
  });

  it('a key expiring after the TTL is still trusted for the TTL only', () => {
    const clock = { now: 0 };
    const cache = new ApiKeyCache({ maxEntries: 10, ttlMs: 1000, now: () => clock.now });
    cache.store('later', principal, cache.generation(), 10_000);
    clock.now = 1000;
    expect(cache.lookup('later')).toBeUndefined();
  });
});

describe("a key's state at an instant", () => {
  const base = { revokedAt: null, revokedReason: null, expiresAt: null, rolledTo: null };
  const now = new Date('2030-01-01T00:00:00Z');
  it('is revoked from its expiry on, expired or rolled, before any sweep', () => {
    expect(keyStateAt(base, now).status).toBe('active');
    expect(keyStateAt({ ...base, expiresAt: new Date(now.getTime() + 1) }, now).status).toBe('active');
    expect(keyStateAt({ ...base, expiresAt: now }, now)).toEqual({ status: 'revoked', revokedAt: now, reason: 'expired' });
    expect(keyStateAt({ ...base, expiresAt: now, rolledTo: 'key_2' }, now).reason).toBe('rolled');
    expect(keyStateAt({ ...base, revokedAt: now, revokedReason: 'leaked' as const }, now).reason).toBe('leaked');
  });

  it('reminders already due at creation are skipped; usage days end today, oldest first', () => {
    expect(initialReminder(new Date(now.getTime() + 30 * DAY), now)).toBeNull();
    expect(initialReminder(new Date(now.getTime() + 7 * DAY), now)).toBe(7);
    expect(initialReminder(new Date(now.getTime() + 3 * DAY), now)).toBe(7);
    expect(initialReminder(new Date(now.getTime() + DAY / 2), now)).toBe(1);
    expect(usageDays(new Date('2030-03-01T23:59:59Z'), 3)).toEqual(['2030-02-27', '2030-02-28', '2030-03-01']);
  });
});
