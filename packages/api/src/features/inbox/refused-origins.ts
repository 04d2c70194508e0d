import { type Database, Form } from '@lfk/db';
import type { BackgroundWork } from '../../infrastructure/background-work.ts';
import type { FormCache } from '../forms/form-cache.ts';

/** How many refused origins a form shows. */
export const REFUSED_ORIGINS_KEPT = 5;
/** One form and origin is written at most this often by one process: a flood of refusals is not a flood of writes. */
const NOTED_AT_MOST_EVERY_MS = 60_000;
/** Pairs remembered for that; past it the memory starts over (at worst, a few more writes). */
const REMEMBERED_PAIRS = 10_000;
/** An `Origin` header is short; anything longer is cut before it is stored. */
const ORIGIN_MAX_LENGTH = 300;

/**
 * Records the origins a form refuses (a browser submission or a CORS preflight from a page not on
 * its allowed origins), so the form's page can show the owner which one is missing. Written after
 * the refusal is answered, never in its way; each form and origin at most once a minute per process.
 */
export class RefusedOrigins {
  readonly #db: Database;
  readonly #background: BackgroundWork;
  readonly #formCache: FormCache;
  readonly #now: () => Date;
  readonly #notedAt = new Map<string, number>();
  /** Each form's last write: a form's notes are written in the order its refusals came. */
  readonly #writing = new Map<string, Promise<void>>();

  constructor(db: Database, background: BackgroundWork, formCache: FormCache, now: () => Date) {
    this.#db = db;
    this.#background = background;
    this.#formCache = formCache;
    this.#now = now;
  }

  note(formId: string, origin: string): void {
    const at = this.#now();
    const pair = `${formId} ${origin}`;
    const last = this.#notedAt.get(pair);
    if (last !== undefined && at.getTime() - last < NOTED_AT_MOST_EVERY_MS) return;
    if (this.#notedAt.size >= REMEMBERED_PAIRS) this.#notedAt.clear();
    this.#notedAt.set(pair, at.getTime());
    const stored = origin.slice(0, ORIGIN_MAX_LENGTH);
    // Two refusals in one millisecond go newest first only if written in turn: on PostgreSQL two
    // background writes at once take two connections, and either may commit first.
    const previous = this.#writing.get(formId) ?? Promise.resolve();
    const write = previous
      .catch(() => {})
      .then(() => this.#db.fork().getRepository(Form).noteRefusedOrigin(formId, stored, at, REFUSED_ORIGINS_KEPT))
      // The notes are part of the form as read (the database's triggers leave them out, see the
      // migration that made them): this process's copy is stale now.
      .then(() => this.#formCache.forget(formId));
    this.#writing.set(formId, write);
    this.#background.run('note a refused origin', async () => {
      try {
        await write;
      } finally {
        if (this.#writing.get(formId) === write) this.#writing.delete(formId);
      }
    });
  }
}
