import { setTimeout as sleep } from 'node:timers/promises';
import { type Database, type StreamPosition, Submission } from '@lfk/db';
import type { Log } from '../../log.ts';

/** How often the held long polls of the events feed are looked at, all of them in one statement. */
export const FEED_WATCH_EVERY_MS = 250;

/** Whether place `a` of a stream comes after place `b`: by transaction, then by submission id. */
export function comesAfter(a: StreamPosition, b: StreamPosition): boolean {
  const [seqA, seqB] = [BigInt(a.seq), BigInt(b.seq)];
  return seqA === seqB ? a.id > b.id : seqA > seqB;
}

interface Waiter {
  formId: string;
  after: StreamPosition;
  wake(): void;
}

/**
 * The long polls of the events feed, waiting: one loop looks at every form they wait on in one
 * statement (`streamHeads`), however many polls there are, and wakes those whose form has news,
 * which then read their page. A held poll costs no statement of its own while it waits (before,
 * each read its page every 250 ms: 2,000 held polls were 8,000 statements a second).
 */
export class FeedWatch {
  readonly #db: Pick<Database, 'fork'>;
  readonly #everyMs: number;
  readonly #log: Log;
  readonly #waiters = new Set<Waiter>();
  #looking = false;

  constructor(db: Pick<Database, 'fork'>, log: Log, everyMs = FEED_WATCH_EVERY_MS) {
    this.#db = db;
    this.#log = log;
    this.#everyMs = everyMs;
  }

  /**
   * True once the form's feed has something after `after`; false when `until` aborts first (the
   * wait is over, the client went away, the server stops), and the waiter is gone at once.
   */
  news(formId: string, after: StreamPosition, until: AbortSignal): Promise<boolean> {
    if (until.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const end = (found: boolean) => {
        this.#waiters.delete(waiter);
        until.removeEventListener('abort', abort);
        resolve(found);
      };
      const waiter: Waiter = { formId, after, wake: () => end(true) };
      const abort = () => end(false);
      until.addEventListener('abort', abort, { once: true });
      this.#waiters.add(waiter);
      void this.#look();
    });
  }

  /** Polls waiting now. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** Runs while anyone waits; a failed look (the database away) is logged and tried again at the next turn. */
  async #look(): Promise<void> {
    if (this.#looking) return;
    this.#looking = true;
    try {
      while (this.#waiters.size > 0) {
        await sleep(this.#everyMs);
        const waiters = [...this.#waiters];
        if (waiters.length === 0) break;
        let heads: Map<string, StreamPosition>;
        try {
          heads = await this.#db
            .fork()
            .getRepository(Submission)
            .streamHeads([...new Set(waiters.map((w) => w.formId))]);
        } catch (error) {
          this.#log.warn({ err: error }, 'could not look for new events for the waiting polls');
          continue;
        }
        for (const waiter of waiters) {
          const head = heads.get(waiter.formId);
          if (head && comesAfter(head, waiter.after)) waiter.wake();
        }
      }
    } finally {
      this.#looking = false;
    }
  }
}
