import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../src/rate-limits/token-buckets.ts';

describe('token buckets', () => {
  it('lets `capacity` requests through at once, then says how long to wait', () => {
    const buckets = new TokenBuckets({ capacity: 3, windowMs: 60_000 });
    const now = 1_000_000;
    expect([buckets.take('ip', now), buckets.take('ip', now), buckets.take('ip', now)]).toEqual([0, 0, 0]);
    // One token comes back every 20 s.
    expect(buckets.take('ip', now)).toBe(20_000);
    expect(buckets.waitFor('ip', now + 5_000)).toBe(15_000);
    expect(buckets.take('ip', now + 20_000)).toBe(0);
    expect(buckets.take('ip', now + 20_000)).toBe(20_000);
  });

  it('keeps subjects apart, and never holds more than the capacity', () => {
    const buckets = new TokenBuckets({ capacity: 2, windowMs: 1_000 });
    buckets.take('a', 0);
    buckets.take('a', 0);
    expect(buckets.take('a', 0)).toBeGreaterThan(0);
    expect(buckets.take('b', 0)).toBe(0);
    // A long quiet time refills to the capacity, not beyond.
    expect([buckets.take('a', 100_000), buckets.take('a', 100_000), buckets.take('a', 100_000)].map((w) => w > 0)).toEqual([false, false, true]);
  });

  it('is bounded: past maxSubjects the least recently seen are forgotten', () => {
    const buckets = new TokenBuckets({ capacity: 1, windowMs: 60_000 }, 100);
    for (let i = 0; i < 1_000; i++) buckets.take(`ip${i}`, 0);
    expect(buckets.size).toBe(100);
    // ip999 was seen last and is still held back; ip0 was forgotten, so it starts afresh.
    expect(buckets.take('ip999', 0)).toBeGreaterThan(0);
    expect(buckets.take('ip0', 0)).toBe(0);
  });
});
