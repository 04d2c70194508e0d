import { Form, isId, type SubmissionFormReading } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { BoundedTtlMap } from '../../bounded-ttl-map.ts';

export interface FormCacheOptions {
  /** Forms kept; 0 turns the cache off. */
  maxEntries: number;
  /** How long a form is trusted without hearing otherwise; 0 turns the cache off. */
  ttlMs: number;
  /**
   * Every change is heard before the statement that made it resolves, so what is kept is never
   * behind the database: true on the embedded engine, where one process holds the database and
   * PGlite delivers a commit's notifications with its answer. Then the cache answers reads of a
   * form too, not only submissions (`readForm`).
   */
  exact?: boolean;
  now?: () => number;
}

/**
 * What the kept forms may weigh together, in characters of their JSON: a form's fields alone may
 * near 1 MiB, so a count of forms alone would not bound the memory they take.
 */
export const FORM_CACHE_MAX_CHARACTERS = 16 * 1024 * 1024;

const DATE_SETTERS = Object.getOwnPropertyNames(Date.prototype).filter((name) => name.startsWith('set'));
function refuseChange(): never {
  throw new TypeError('a cached form cannot be changed');
}

/** `value` and everything in it frozen, its dates too (whose setters a freeze leaves working). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (value instanceof Date) for (const name of DATE_SETTERS) Object.defineProperty(value, name, { value: refuseChange });
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}

/**
 * The forms submissions are checked against, by id, for this process: only forms that exist (an
 * unknown id always asks the database). A form changed anywhere is forgotten when the database
 * says so (features/forms/form-change-listener.ts), and at once by the process that changed it.
 * Until the database's channel is heard, and whenever it is lost, the cache is suspended: every
 * submission reads its form, so a change that went unheard is never served from memory.
 *
 * A read that raced with a change must not be kept: callers take `generation()` before the
 * database read and hand it to `keep()`, which drops the answer if anything was forgotten since.
 * What it hands out is frozen, so no request can change what the next one reads.
 */
export class FormCache {
  readonly #forms: BoundedTtlMap<SubmissionFormReading>;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #off: boolean;
  readonly exact: boolean;
  // Nothing is heard yet: what is built without its listener (a test's services) never caches.
  #suspended = true;
  #generation = 0;

  constructor(options: FormCacheOptions) {
    this.#forms = new BoundedTtlMap(options.maxEntries, FORM_CACHE_MAX_CHARACTERS);
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
    this.#off = options.maxEntries <= 0 || options.ttlMs <= 0;
    this.exact = options.exact ?? false;
  }

  /** The form, or undefined when the database must be asked. */
  lookup(formId: string): SubmissionFormReading | undefined {
    if (this.#off || this.#suspended) return undefined;
    return this.#forms.get(formId, this.#now());
  }

  generation(): number {
    return this.#generation;
  }

  /** Keeps `form` if nothing was forgotten since `readAtGeneration`; answers it frozen either way, as a hit would be. */
  keep(form: SubmissionFormReading, readAtGeneration: number): SubmissionFormReading {
    const frozen = deepFreeze(form);
    if (this.#off || this.#suspended || readAtGeneration !== this.#generation) return frozen;
    this.#forms.set(form.id, frozen, this.#now() + this.#ttlMs, JSON.stringify(form).length);
    return frozen;
  }

  /** The form changed (or is gone): the next submission reads it. */
  forget(formId: string): void {
    this.#generation++;
    this.#forms.delete(formId);
  }

  /** Changes may go unheard (the notification channel is down): read every form every time. */
  suspend(): void {
    this.#suspended = true;
    this.#generation++;
    this.#forms.clear();
  }

  /** Hearing changes again; what was missed meanwhile was never kept. */
  resume(): void {
    this.#generation++;
    this.#suspended = false;
  }

  /** Forms kept, and what they weigh (characters of JSON). */
  get size(): { forms: number; characters: number } {
    return { forms: this.#forms.size, characters: this.#forms.weight };
  }
}

/**
 * Any form by id, claimed or not, from `cache` when it holds it (no statement), else from the
 * database, kept for the next request if nothing changed meanwhile. Null when there is no such
 * form; a wrong-shaped id names nothing. Frozen: it is every request's.
 */
export async function readForm(cache: FormCache, em: EntityManager, formId: string): Promise<SubmissionFormReading | null> {
  if (!isId('form', formId)) return null;
  const cached = cache.lookup(formId);
  if (cached) return cached;
  const generation = cache.generation();
  const found = await em.getRepository(Form).readForSubmission(formId);
  return found && cache.keep(found, generation);
}
