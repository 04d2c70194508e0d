import { ConcurrencyLimit } from './concurrency-limit.ts';

/** Requests one person, and one workspace, may hold open at once in one process (`LFK_LONG_POLLS_PER_*`). */
export interface LongPollLimits {
  perPerson: number;
  perWorkspace: number;
}

export const DEFAULT_LONG_POLL_LIMITS: LongPollLimits = { perPerson: 10, perWorkspace: 50 };

/** A held poll ends within 20 s (`EVENTS_MAX_WAIT_SECONDS`), and most sooner: a place is soon free. */
const LONG_POLL_RETRY_AFTER_SECONDS = 5;

/**
 * Requests held open until something happens (a long poll of the events feed): at most so many per
 * person and per workspace at once in this process, counted with exports' rule (`ConcurrencyLimit`:
 * past it, `429 rate_limited` with `Retry-After`), and all cut short when the server stops: shutdown
 * waits for requests in flight, and must not wait out a poll.
 */
export class LongPolls {
  readonly #stopping = new AbortController();
  readonly #perPerson: ConcurrencyLimit;
  readonly #perWorkspace: ConcurrencyLimit;

  constructor(limits: LongPollLimits = DEFAULT_LONG_POLL_LIMITS) {
    const refusal = (held: string) => ({ message: `${held} Let one of them answer, then ask again.`, retryAfterSeconds: LONG_POLL_RETRY_AFTER_SECONDS });
    this.#perPerson = new ConcurrencyLimit(limits.perPerson, refusal(`You already hold ${limits.perPerson} waiting requests for events at once.`));
    this.#perWorkspace = new ConcurrencyLimit(
      limits.perWorkspace,
      refusal(`This workspace already holds ${limits.perWorkspace} waiting requests for events at once.`),
    );
  }

  /** The server is stopping: a poll answers with what it has. */
  get stopping(): boolean {
    return this.#stopping.signal.aborted;
  }

  /** Aborted when the server stops. */
  get stopped(): AbortSignal {
    return this.#stopping.signal;
  }

  /**
   * Takes a place for a poll `person` holds open in `workspace`, or throws `rate_limited` when
   * either has none left. The answer gives it back, whatever ended the poll; calling it again does nothing.
   */
  hold(person: string, workspace: string): () => void {
    const personsPlace = this.#perPerson.take(person);
    try {
      const workspacesPlace = this.#perWorkspace.take(workspace);
      return () => {
        personsPlace();
        workspacesPlace();
      };
    } catch (error) {
      personsPlace();
      throw error;
    }
  }

  /** Polls held open now, by everyone. */
  get held(): number {
    return this.#perPerson.held;
  }

  stop(): void {
    this.#stopping.abort();
  }
}
