import type { Log } from '../log.ts';

/**
 * Work a request starts and does not wait for, so that its answer takes the same time whatever the
 * work finds (a password reset for an address with or without an account). A task's failure is
 * logged, never thrown at anyone; shutdown waits for what is still running (`settle`).
 */
export class BackgroundWork {
  readonly #log: Log;
  readonly #running = new Set<Promise<void>>();

  constructor(log: Log) {
    this.#log = log;
  }

  /** Starts `task` on the event loop's next turn: after the request's answer is written, which it must not hold up. */
  run(name: string, task: () => Promise<void>): void {
    const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err: unknown) => this.#log.error({ err, task: name }, 'background work failed'))
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /** Resolves once every task started so far has ended. */
  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}
