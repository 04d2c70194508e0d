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
export function nextAttemptAfter(
  attempts: number,
  now: Date,
  delays: readonly number[] = RETRY_DELAYS_MS,
  random: number = Math.random(),
): Date | null {
  const delay = delays[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * (0.8 + 0.4 * random)));
}
