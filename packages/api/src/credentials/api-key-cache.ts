import type { ApiKeyRevokedReason } from '@lfk/vocabulary';
import type { AddressAllowlist } from './address-allowlist.ts';
import type { KeyPrincipal } from './principal.ts';
import { BoundedTtlMap } from '../bounded-ttl-map.ts';

/**
 * What the database said of a key: it works (for whom, and from where: a null allowlist is
 * anywhere), or it exists and stopped working (which key, and why, so its refused uses are its own).
 */
export type KeyVerdict =
  | { readonly usable: true; readonly principal: KeyPrincipal; readonly allowlist: AddressAllowlist | null }
  | { readonly usable: false; readonly keyId: string; readonly reason: ApiKeyRevokedReason };
type UsableKey = Extract<KeyVerdict, { usable: true }>;
type StoppedKey = Extract<KeyVerdict, { usable: false }>;

export interface ApiKeyCacheOptions {
  /** Entries of each kind (valid keys, refused keys); 0 turns the cache off. */
  maxEntries: number;
  /** How long an answer is trusted without hearing otherwise; 0 turns the cache off. */
  ttlMs: number;
  now?: () => number;
}

/**
 * What the database said about a key, by the key's hash: its verdict, or null when no key has that
 * hash. Usable keys and refused ones (stopped or unknown) are bounded separately, so a flood of
 * made-up keys cannot push the real ones out.
 *
 * A read that raced with a revocation must not be stored: callers take `generation()` before the
 * database read and hand it to `store()`, which drops the answer if anything was forgotten since.
 */
export class ApiKeyCache {
  readonly #valid: BoundedTtlMap<UsableKey>;
  readonly #refused: BoundedTtlMap<StoppedKey | null>;
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

  /** The key's verdict, null for a hash known to match no key, undefined when the database must be asked. */
  lookup(hash: string): KeyVerdict | null | undefined {
    if (this.#off || this.#suspended) return undefined;
    const now = this.#now();
    return this.#valid.get(hash, now) ?? this.#refused.get(hash, now);
  }

  generation(): number {
    return this.#generation;
  }

  /**
   * `validUntil` is when the key itself expires (ms since the epoch): a valid key's entry never
   * outlives it, so at that instant the next lookup asks the database, which refuses the key.
   */
  store(hash: string, verdict: KeyVerdict | null, readAtGeneration: number, validUntil: number | null = null): void {
    if (this.#off || this.#suspended || readAtGeneration !== this.#generation) return;
    const expiresAt = this.#now() + this.#ttlMs;
    if (verdict === null || !verdict.usable) this.#refused.set(hash, verdict, expiresAt);
    else this.#valid.set(hash, verdict, validUntil === null ? expiresAt : Math.min(expiresAt, validUntil));
  }

  /** The key changed (revoked, its expiry moved, its allowlist changed): the next request asks the database. */
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
