import { type Database, databaseFailureOf } from '@lfk/db';
import type { Log } from '../log.ts';
import type { BackgroundTask } from './background-task.ts';

/** While the database is away, it is asked this often whether it is back. */
const PROBE_EVERY_MS = 1000;
/** A full pool is said in the log at most this often. */
const BUSY_LOG_EVERY_MS = 60_000;

/** What `/readyz` and the metrics say of an outage in progress. */
export interface OutageState {
  since: Date;
  /** Requests and background runs that failed on it so far. */
  failures: number;
}

/**
 * The database going away, seen from this process: logged once when the first failure shows it,
 * and once when a probe finds it back, instead of a stack trace per request. Requests keep trying
 * the database meanwhile (each answers 503 when it fails, `asApiError`): the outage is a record,
 * not a switch, so nobody is refused by a process that has not noticed the database came back.
 */
export class DatabaseOutage implements BackgroundTask {
  readonly name = 'database outage watch';
  readonly #db: Database;
  readonly #log: Log;
  #state: OutageState | null = null;
  #probe: NodeJS.Timeout | undefined;
  #stopped = false;
  /** Requests that found the pool full since the last line said so, and when that line was written. */
  #busy = { count: 0, loggedAt: Number.NEGATIVE_INFINITY };

  constructor(db: Database, log: Log) {
    this.#db = db;
    this.#log = log;
  }

  get current(): OutageState | null {
    return this.#state;
  }

  /**
   * True when `error` is the database failing (then it is counted, and an outage is logged when it
   * begins); false for any other error, which the caller logs as it would.
   */
  note(error: unknown): boolean {
    const failure = databaseFailureOf(error);
    if (failure === null) return false;
    if (failure === 'busy') {
      this.#noteBusy();
      return true;
    }
    if (failure === 'timed_out') {
      // The database answers, slowly: no outage to begin or end, but a line a person can act on.
      this.#log.warn({ reason: messageOf(error) }, 'a database statement ran past its statement timeout; answered 503');
      return true;
    }
    if (this.#state) {
      this.#state.failures++;
      return true;
    }
    this.#state = { since: new Date(), failures: 1 };
    this.#log.error({ reason: messageOf(error) }, 'database unreachable: requests that need it answer 503 service_unavailable until it is back');
    this.#scheduleProbe();
    return true;
  }

  /**
   * A full pool is load, not an outage: the database answers, so nothing begins or ends and no
   * probe runs; a line at most once a minute says how many requests it turned away, as every one
   * of them would flood the log exactly when the process is busiest.
   */
  #noteBusy(): void {
    this.#busy.count++;
    const now = Date.now();
    if (now - this.#busy.loggedAt < BUSY_LOG_EVERY_MS) return;
    this.#log.warn(
      { requests: this.#busy.count },
      `every database connection was in use past the connect timeout: ${this.#busy.count} requests answered 503 since the last such line`,
    );
    this.#busy = { count: 0, loggedAt: now };
  }

  /** `log`, but a line about a database failure is counted towards the outage instead of written. */
  quiet(log: Log): Log {
    const pass = (level: keyof Log) => (fields: object, message: string) => {
      const err = (fields as { err?: unknown }).err;
      if (err !== undefined && this.note(err)) return;
      log[level](fields, message);
    };
    return { info: pass('info'), warn: pass('warn'), error: pass('error') };
  }

  /** It watches from the first failure it is told of: nothing to start. */
  start(): void {}

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#probe);
  }

  #scheduleProbe(): void {
    if (this.#stopped) return;
    this.#probe = setTimeout(() => void this.#checkBack(), PROBE_EVERY_MS);
    this.#probe.unref();
  }

  async #checkBack(): Promise<void> {
    const state = this.#state;
    if (!state || this.#stopped) return;
    if (!(await this.#db.isReady())) return this.#scheduleProbe();
    this.#state = null;
    const seconds = Math.round((Date.now() - state.since.getTime()) / 100) / 10;
    this.#log.warn(
      { down_for_s: seconds, failures: state.failures },
      `database reachable again after ${seconds} s; ${state.failures} requests or runs failed on it meanwhile`,
    );
  }
}

/** The first line of what the driver said, without a stack: `connect ECONNREFUSED 127.0.0.1:5432`. */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!;
}
