/**
 * Token buckets in memory, one per subject (an IP, a form): `capacity` requests at once, refilled
 * at `capacity` per `windowMs`. Memory is bounded: past `maxSubjects`, the least recently used
 * subjects are forgotten (which only ever lets a request through, never blocks one wrongly).
 */
export interface Rate {
  capacity: number;
  windowMs: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class TokenBuckets {
  readonly #rate: Rate;
  readonly #maxSubjects: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(rate: Rate, maxSubjects = 100_000) {
    this.#rate = rate;
    this.#maxSubjects = maxSubjects;
  }

  /** Milliseconds until `subject` may make a request; 0 means now. Takes nothing. */
  waitFor(subject: string, now = Date.now()): number {
    const bucket = this.#refilled(subject, now);
    return bucket.tokens >= 1 ? 0 : Math.ceil((1 - bucket.tokens) / this.#perMs);
  }

  /** Takes one token; returns 0 when there was one, else the milliseconds until there will be. */
  take(subject: string, now = Date.now()): number {
    const bucket = this.#refilled(subject, now);
    if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / this.#perMs);
    bucket.tokens -= 1;
    return 0;
  }

  get size(): number {
    return this.#buckets.size;
  }

  get #perMs(): number {
    return this.#rate.capacity / this.#rate.windowMs;
  }

  #refilled(subject: string, now: number): Bucket {
    let bucket = this.#buckets.get(subject);
    if (bucket) {
      this.#buckets.delete(subject);
      bucket.tokens = Math.min(this.#rate.capacity, bucket.tokens + (now - bucket.updatedAt) * this.#perMs);
      bucket.updatedAt = now;
    } else {
      bucket = { tokens: this.#rate.capacity, updatedAt: now };
      if (this.#buckets.size >= this.#maxSubjects) this.#buckets.delete(this.#buckets.keys().next().value!);
    }
    // Re-inserting keeps the map in least-recently-used order.
    this.#buckets.set(subject, bucket);
    return bucket;
  }
}
