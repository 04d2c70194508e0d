import type { Log } from '../log.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import type { BackgroundTask } from './background-task.ts';
import { periodic } from './periodic.ts';

/** The 'rate limit sweep': drops the buckets that have refilled (they hold nothing a fresh one would not). */
export function rateLimitSweep(rateLimits: RateLimits, everyMs: number, log: Log): BackgroundTask {
  return periodic('rate limit sweep', 'sweep refilled rate limit buckets', everyMs, async () => void (await rateLimits.sweep()), log);
}
