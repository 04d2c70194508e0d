import { AsyncResource } from 'node:async_hooks';
import type { Log } from '../log.ts';
import type { BackgroundTask } from './background-task.ts';

/**
 * One durable queue in the database (the email outbox, webhook deliveries): how to take due items
 * (each locked for a while, `for update skip locked`, so replicas never take the same one) and
 * how to work one off, recording its outcome. `perform` throws only when the outcome could not be
 * recorded (the database is away): the item's lock lapses and it is taken again, at least once.
 */
export interface QueueJob<T> {
  /** Shown in log lines (`outbox: could not reach the database…`). */
  name: string;
  claim(limit: number): Promise<Claim<T>>;
  perform(item: T): Promise<void>;
}

/** What one claim took, and what it says about the rest of the queue. */
export interface Claim<T> {
  items: T[];
  /** Others may be due now: a full claim, or caps that cut it short. The worker claims again at once. */
  more: boolean;
  /**
   * Due items wait for ones in flight (webhooks cap what one endpoint and one workspace hold): each
   * finished item looks again, since it may free one. Otherwise the worker waits to be woken, or
   * for its poll.
   */
  capped?: boolean;
}

export interface QueueWorkerOptions {
  /** Its name as a background task ('webhook worker'); the job's name otherwise. */
  name?: string;
  /** How often to look for due items when nobody wakes the worker. */
  pollMs: number;
  /** The most items taken by one claim (they are locked while they wait their turn). */
  batchSize: number;
  /** The most items worked on at once by this replica. */
  concurrency: number;
}

/**
 * The one delivery engine: it claims due items and works them off, up to `concurrency` at once,
 * whenever it is woken (a request queued work) or its poll comes round. Replicas on one database
 * share the queue through the claim; a replica that dies lets its locks lapse.
 */
export class QueueWorker<T> implements BackgroundTask {
  readonly name: string;
  readonly #job: QueueJob<T>;
  readonly #log: Log;
  readonly #options: QueueWorkerOptions;
  readonly #inFlight = new Set<Promise<void>>();
  /** Claimed items not started yet: a batch is claimed at once, and worked off `concurrency` at a time. */
  readonly #claimed: T[] = [];
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<void> | undefined;
  #again = false;
  /** Whether a finished item should look for more: the last claim said that due items wait for ones in flight. */
  #lookAgain = false;
  #stopped = true;
  /**
   * The worker's own async context. A request that queued work wakes the worker, and without this
   * the work and every poll after it would run in that request's context: counted as the
   * request's by anything tracing requests, and keeping the context alive for good.
   */
  readonly #scope: AsyncResource;

  constructor(job: QueueJob<T>, log: Log, options: QueueWorkerOptions) {
    this.#job = job;
    this.#log = log;
    this.#options = options;
    this.name = options.name ?? job.name;
    this.#scope = new AsyncResource(`lfk.QueueWorker.${job.name}`);
  }

  start(): void {
    this.#stopped = false;
    this.wake();
  }

  /** New work is queued: look now rather than at the next poll. */
  wake(): void {
    this.#scope.runInAsyncScope(() => this.#wake());
  }

  #wake(): void {
    if (this.#stopped) return;
    if (this.#draining) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
      if (this.#stopped) return;
      if (this.#again) {
        this.#again = false;
        this.wake();
      } else {
        this.#timer = setTimeout(() => this.wake(), this.#options.pollMs);
        this.#timer.unref();
      }
    });
  }

  /**
   * Stops claiming; what was claimed finishes (as a batch claimed by the last drain). What is still
   * queued in the database waits there for the next start.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#draining;
    while (this.#claimed.length > 0 || this.#inFlight.size > 0) {
      this.#pump();
      await Promise.race(this.#inFlight);
    }
  }

  /** Starts claimed items while slots are free. */
  #pump(): void {
    while (this.#claimed.length > 0 && this.#inFlight.size < this.#options.concurrency) this.#start(this.#claimed.shift()!);
  }

  async #drain(): Promise<void> {
    const batch = this.#options.batchSize;
    try {
      while (!this.#stopped) {
        this.#pump();
        // The next claim once this batch has all started and a batch's worth of room is free (or
        // all of it, with fewer slots than a batch): one claim per batch, not per finished item.
        const room = this.#options.concurrency - this.#inFlight.size;
        if (this.#claimed.length > 0 || room < Math.min(batch, this.#options.concurrency)) {
          await Promise.race(this.#inFlight);
          continue;
        }
        const { items, more, capped } = await this.#job.claim(batch);
        this.#lookAgain = capped === true;
        this.#claimed.push(...items);
        this.#pump();
        // Nothing else can be taken now (while a cap holds some back, a finished item looks again).
        if (!more) return;
      }
    } catch (err) {
      // The database may be briefly away; the next poll tries again.
      this.#log.error({ err, queue: this.#job.name }, `${this.#job.name}: could not reach the database; trying again at the next poll`);
    }
  }

  #start(item: T): void {
    const running = this.#job
      .perform(item)
      .catch((err) => {
        this.#log.error({ err, queue: this.#job.name }, `${this.#job.name}: could not record an outcome; the item is taken again when its lock lapses`);
      })
      .finally(() => {
        this.#inFlight.delete(running);
        this.#pump();
        if (this.#lookAgain) this.wake();
      });
    this.#inFlight.add(running);
  }
}
