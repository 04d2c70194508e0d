import { ApiError } from '../errors.ts';
import { type Rate, TokenBuckets } from './token-buckets.ts';

/**
 * The abuse limits. Each is per process (a replica counts its own traffic): the cheap, I/O-free
 * choice that keeps a flood of bad keys away from the database.
 */
export const RATE_LIMIT_NAMES = [
  /** Anonymous `POST /v1/forms`, per IP. */
  'anonymous_forms',
  /** Sign-up and login attempts, per IP. */
  'login',
  /** Requests whose API key was refused, per IP. */
  'key_failures',
  /** Taken browser (origin-checked) submissions, per form and client address. */
  'browser_submissions',
] as const;
export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];

/** `null` turns a limit off. */
export type RateLimitConfig = Record<RateLimitName, Rate | null>;

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  anonymous_forms: { capacity: 10, windowMs: 3600_000 },
  login: { capacity: 10, windowMs: 60_000 },
  key_failures: { capacity: 20, windowMs: 60_000 },
  browser_submissions: { capacity: 60, windowMs: 60_000 },
};

function rateLimited(waitMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError('rate_limited', {
    message: `Too many requests. Retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    headers: { 'retry-after': String(seconds) },
  });
}

export class RateLimits {
  readonly #buckets: Partial<Record<RateLimitName, TokenBuckets>> = {};

  constructor(config: RateLimitConfig) {
    for (const name of RATE_LIMIT_NAMES) {
      const rate = config[name];
      if (rate) this.#buckets[name] = new TokenBuckets(rate);
    }
  }

  /** Counts one request of `subject`; throws `rate_limited` (with `Retry-After`) when over. */
  consume(name: RateLimitName, subject: string): void {
    const wait = this.#buckets[name]?.take(subject) ?? 0;
    if (wait > 0) throw rateLimited(wait);
  }

  /** The `rate_limited` error if `subject` is over the limit now, without counting a request. */
  check(name: RateLimitName, subject: string): ApiError | null {
    const wait = this.#buckets[name]?.waitFor(subject) ?? 0;
    return wait > 0 ? rateLimited(wait) : null;
  }

  /** Counts one request that went wrong (a refused key), so the next ones can be held back. */
  record(name: RateLimitName, subject: string): void {
    this.#buckets[name]?.take(subject);
  }
}
