import type { Log } from '../log.ts';
import type { BackgroundTask } from './background-task.ts';

/**
 * Work a request starts and does not wait for, so that its answer takes the same time whatever the
 * work finds (a password reset for an address with or without an account). A task's failure is
 * logged, never thrown at anyone; shutdown waits for what is still running (`settle`).
 */
export class BackgroundWork implements BackgroundTask {
  readonly name = 'request work';
  readonly #log: Log;
  readonly #running = new Set<Promise<void>>();
  /** The last task started for each key: the next one with that key waits for it. */
  readonly #lastByKey = new Map<string, Promise<void>>();

  constructor(log: Log) {
    this.#log = log;
  }

  /**
   * Starts `task` on the event loop's next turn: after the request's answer is written, which it
   * must not hold up. Tasks with the same `key` run one after another, in the order they were
   * started (two reset requests for one address: the second's link is the one that stays).
   */
  run(name: string, task: () => Promise<void>, key?: string): void {
    const before = key === undefined ? undefined : this.#lastByKey.get(key);
    const running: Promise<void> = (before ?? Promise.resolve())
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(task)
      .catch((err: unknown) => this.#log.error({ err, task: name }, 'background work failed'))
      .finally(() => {
        this.#running.delete(running);
        if (key !== undefined && this.#lastByKey.get(key) === running) this.#lastByKey.delete(key);
      });
    this.#running.add(running);
    if (key !== undefined) this.#lastByKey.set(key, running);
  }

  /** Resolves once every task started so far has ended. */
  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  /** Work runs as requests start it: nothing to start. */
  start(): void {}

  /** Shutdown waits for the work requests left running. */
  stop(): Promise<void> {
    return this.settle();
  }
}
