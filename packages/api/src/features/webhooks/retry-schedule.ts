/**
 * How long after each failed attempt the next one comes: quickly at first (a receiver that was
 * restarting), then further apart, about three days in all (77.6 hours before jitter). After the
 * last, the delivery has failed for good; its log keeps it, and a person can retry it.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

/**
 * When attempt `attempts + 1` is due after `attempts` have failed, or null when none is left.
 * Each delay is spread by ±20% (`random` in [0, 1)), so receivers that came back together are not
 * hit together.
 */
export function nextAttemptAfter(attempts: number, now: Date, delays: readonly number[] = RETRY_DELAYS_MS, random: number = Math.random()): Date | null {
  const delay = delays[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * (0.8 + 0.4 * random)));
}

/** The longest a receiver's `Retry-After` (on a 429 or 503) may put its next attempt off. */
export const RETRY_AFTER_MAX_MS = 3_600_000;

/** What decides when a delivery is due again after a failed attempt. */
export interface FailedAttempt {
  /** The automatic attempts made (a requested one not among them). */
  attemptCount: number;
  /** A member asked for this attempt (Retry now). */
  requested: boolean;
  /** When the schedule had the delivery due before that request. */
  resumeAt: Date | null;
  /** What the receiver's `Retry-After` asked for, if it answered 429 or 503 with one. */
  retryAfterMs?: number | undefined;
}

/**
 * When a delivery is due again after a failed attempt at `at`, or null when its attempts have run
 * out. By the schedule; after an attempt a member asked for, where the schedule had it (or, when
 * it had none: failed, held or discarded, the schedule's next step), so asking never moves the
 * schedule. Never sooner than the receiver's `Retry-After`, which counts for at most an hour: the
 * schedule goes on from there.
 */
export function nextAttemptAfterFailure(
  failed: FailedAttempt,
  at: Date,
  delays: readonly number[] = RETRY_DELAYS_MS,
  random: number = Math.random(),
): Date | null {
  const scheduled = failed.requested
    ? (failed.resumeAt ?? nextAttemptAfter(Math.max(failed.attemptCount, 1), at, delays, random))
    : nextAttemptAfter(failed.attemptCount, at, delays, random);
  if (scheduled === null || failed.retryAfterMs === undefined) return scheduled;
  const asked = at.getTime() + Math.min(failed.retryAfterMs, RETRY_AFTER_MAX_MS);
  return asked > scheduled.getTime() ? new Date(asked) : scheduled;
}
