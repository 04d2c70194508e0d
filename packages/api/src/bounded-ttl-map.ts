interface Entry<T> {
  value: T;
  expiresAt: number;
  weight: number;
}

/**
 * Insertion-ordered and bounded: when full, the oldest entry goes. Every entry also expires after
 * the TTL, so the oldest entry is close to the least useful one, and a hit costs no bookkeeping.
 * Full is `maxEntries` entries, or (when entries weigh something) `maxWeight` in all: one entry
 * heavier than that is not kept.
 */
export class BoundedTtlMap<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxEntries: number;
  readonly #maxWeight: number;
  #weight = 0;

  constructor(maxEntries: number, maxWeight = Number.POSITIVE_INFINITY) {
    this.#maxEntries = maxEntries;
    this.#maxWeight = maxWeight;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** What the entries weigh together. */
  get weight(): number {
    return this.#weight;
  }

  get(key: string, now: number): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.delete(key);
    return undefined;
  }

  set(key: string, value: T, expiresAt: number, weight = 0): void {
    this.delete(key);
    if (weight > this.#maxWeight) return;
    while (this.#entries.size > 0 && (this.#entries.size >= this.#maxEntries || this.#weight + weight > this.#maxWeight)) {
      this.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(key, { value, expiresAt, weight });
    this.#weight += weight;
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }
}
