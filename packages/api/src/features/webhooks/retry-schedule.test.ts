import { describe, expect, it } from 'vitest';
import { retryAfterOf } from '../../infrastructure/outbound-requests.ts';
import { nextAttemptAfter, nextAttemptAfterFailure, RETRY_AFTER_MAX_MS, RETRY_DELAYS_MS } from './retry-schedule.ts';

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

describe('after a failed attempt (issue 40)', () => {
  const at = new Date('2026-11-25T00:00:00Z');
  const inMs = (next: Date | null) => (next === null ? null : next.getTime() - at.getTime());
  const failed = (over: Partial<Parameters<typeof nextAttemptAfterFailure>[0]> = {}) =>
    inMs(nextAttemptAfterFailure({ attemptCount: 3, requested: false, resumeAt: null, ...over }, at, RETRY_DELAYS_MS, 0.5));

  it('an automatic attempt: the schedule', () => {
    expect(failed()).toBe(300_000);
    expect(failed({ attemptCount: RETRY_DELAYS_MS.length + 1 })).toBeNull();
  });

  it("a member's retry leaves the schedule where it was, or takes its next step when it had none", () => {
    const resumeAt = new Date(at.getTime() + 1_234_567);
    expect(failed({ requested: true, resumeAt })).toBe(1_234_567);
    // Failed, held or discarded: the step after the last automatic attempt (the 3rd: 5 min).
    expect(failed({ requested: true })).toBe(300_000);
    // Never attempted automatically (held before its first attempt): the first step.
    expect(failed({ requested: true, attemptCount: 0 })).toBe(5_000);
    // Out of attempts: a retry that fails leaves it failed.
    expect(failed({ requested: true, attemptCount: RETRY_DELAYS_MS.length + 1 })).toBeNull();
  });

  it("a receiver's Retry-After is a minimum, capped at an hour; the schedule wins when later; nothing revives a delivery out of attempts", () => {
    expect(failed({ retryAfterMs: 900_000 })).toBe(900_000);
    expect(failed({ retryAfterMs: 10_000 })).toBe(300_000);
    expect(failed({ retryAfterMs: 86_400_000 })).toBe(RETRY_AFTER_MAX_MS);
    expect(failed({ attemptCount: 7, retryAfterMs: 86_400_000 })).toBe(36_000_000);
    expect(failed({ attemptCount: RETRY_DELAYS_MS.length + 1, retryAfterMs: 1_000 })).toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date, and ignores anything else', () => {
    const now = Date.parse('2026-11-25T00:00:00Z');
    expect(retryAfterOf('120', now)).toBe(120_000);
    expect(retryAfterOf(' 0 ', now)).toBe(0);
    expect(retryAfterOf('Wed, 25 Nov 2026 00:10:00 GMT', now)).toBe(600_000);
    expect(retryAfterOf('Tue, 24 Nov 2026 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterOf(['30', '60'], now)).toBe(30_000);
    for (const bad of [undefined, '', 'soon', '-5', '1.5', '12abc']) expect(retryAfterOf(bad, now)).toBeUndefined();
  });
});
