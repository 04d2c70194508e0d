import { ApiError } from '../errors.ts';

/**
 * At most `max` of one kind of long-lived work (an export streaming) per person at once, in this
 * process: counted in memory, so each replica counts its own (N replicas allow N × `max`).
 */
export class ConcurrencyLimit {
  readonly #max: number;
  readonly #refusal: { message: string; retryAfterSeconds: number };
  readonly #held = new Map<string, number>();
  #total = 0;

  constructor(max: number, refusal: { message: string; retryAfterSeconds: number }) {
    this.#max = max;
    this.#refusal = refusal;
  }

  /**
   * Takes one of `person`'s places, or throws `rate_limited` (with `Retry-After`) when they hold
   * every one. The answer gives the place back; calling it again does nothing.
   */
  take(person: string): () => void {
    const held = this.#held.get(person) ?? 0;
    if (held >= this.#max) {
      throw new ApiError('rate_limited', {
        message: this.#refusal.message,
        headers: { 'retry-after': String(this.#refusal.retryAfterSeconds) },
      });
    }
    this.#held.set(person, held + 1);
    this.#total++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#total--;
      const left = (this.#held.get(person) ?? 1) - 1;
      if (left === 0) this.#held.delete(person);
      else this.#held.set(person, left);
    };
  }

  /** Places held now, by everyone. */
  get held(): number {
    return this.#total;
  }
}
