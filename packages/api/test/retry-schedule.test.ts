import { describe, expect, it } from 'vitest';
import { nextAttemptAfter, RETRY_DELAYS_MS } from '../src/features/webhooks/retry-schedule.ts';

describe('the webhook retry schedule', () => {
  const now = new Date('2026-11-25T00:00:00Z');
  const after = (attempts: number, random: number) => nextAttemptAfter(attempts, now, RETRY_DELAYS_MS, random)!.getTime() - now.getTime();

  it('retries 5 s after the first failure, then 1 min, 5 min, 30 min, 2 h, 5 h and 10 h, each spread ±20%', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => after(n, 0.5))).toEqual([5_000, 60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(after(1, 0)).toBe(4_000);
    expect(after(1, 0.999999)).toBeLessThanOrEqual(6_000);
  });

  it('spans about three days, then gives up', () => {
    const total = RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total / 3_600_000).toBeCloseTo(77.6, 1);
    expect(nextAttemptAfter(RETRY_DELAYS_MS.length, now)).not.toBeNull();
    expect(nextAttemptAfter(RETRY_DELAYS_MS.length + 1, now)).toBeNull();
  });
});
