import type { KeyPrincipal } from './principal.ts';

export interface ApiKeyCacheOptions {
  /** Entries of each kind (valid keys, refused keys); 0 turns the cache off. */
  maxEntries: number;
  /** How long an answer is trusted without hearing otherwise; 0 turns the cache off. */
  ttlMs: number;
  now?: () => number;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * Insertion-ordered and bounded: when full, the oldest entry goes. Every entry also expires after
 * the TTL, so the oldest entry is close to the least useful one, and a hit costs no bookkeeping.
 */
class BoundedTtlMap<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, now: number): Entry<T> | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > now) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, value: T, expiresAt: number): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, expiresAt });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * What the database said about a key, by the key's hash: its principal, or null when it was
 * refused (unknown or revoked). Valid and refused keys are bounded separately, so a flood of
 * made-up keys cannot push the real ones out.
 *
 * A read that raced with a revocation must not be stored: callers take `generation()` before the
 * database read and hand it to `store()`, which drops the answer if anything was forgotten since.
 */
export class ApiKeyCache {
  readonly #valid: BoundedTtlMap<KeyPrincipal>;
  readonly #refused: BoundedTtlMap<null>;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #off: boolean;
  #suspended = false;
  #generation = 0;

  constructor(options: ApiKeyCacheOptions) {
    this.#valid = new BoundedTtlMap(options.maxEntries);
    this.#refused = new BoundedTtlMap(options.maxEntries);
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
    this.#off = options.maxEntries <= 0 || options.ttlMs <= 0;
  }

  /** The principal, null for a key known to be refused, undefined when the database must be asked. */
  lookup(hash: string): KeyPrincipal | null | undefined {
    if (this.#off || this.#suspended) return undefined;
    const now = this.#now();
    const valid = this.#valid.get(hash, now);
    if (valid !== undefined) return valid.value;
    return this.#refused.get(hash, now) === undefined ? undefined : null;
  }

  generation(): number {
    return this.#generation;
  }

  /**
   * `validUntil` is when the key itself expires (ms since the epoch): a valid key's entry never
   * outlives it, so at that instant the next lookup asks the database, which refuses the key.
   */
  store(hash: string, principal: KeyPrincipal | null, readAtGeneration: number, validUntil: number | null = null): void {
    if (this.#off || this.#suspended || readAtGeneration !== this.#generation) return;
    const expiresAt = this.#now() + this.#ttlMs;
    if (principal === null) this.#refused.set(hash, null, expiresAt);
    else this.#valid.set(hash, principal, validUntil === null ? expiresAt : Math.min(expiresAt, validUntil));
  }

  /** The key changed (revoked, or its expiry moved): the next request asks the database. */
  forget(hash: string): void {
    this.#generation++;
    this.#valid.delete(hash);
    this.#refused.delete(hash);
  }

  /** Revocations may go unheard (the notification channel is down): ask the database every time. */
  suspend(): void {
    this.#suspended = true;
    this.#generation++;
    this.#valid.clear();
    this.#refused.clear();
  }

  /** Hearing revocations again; what was missed meanwhile was never stored. */
  resume(): void {
    this.#generation++;
    this.#suspended = false;
  }

  get size(): { valid: number; refused: number } {
    return { valid: this.#valid.size, refused: this.#refused.size };
  }
}
