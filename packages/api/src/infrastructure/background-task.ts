import type { Log } from '../log.ts';

/**
 * One piece of work the server runs beside its requests: a queue worker, a sweep, a buffer, a
 * listener, a pool of connections. Each has this one shape, so that start-up and shutdown are
 * built from one list (`TaskList`) rather than written out by hand.
 */
export interface BackgroundTask {
  /** Names it in log lines and shutdown steps ('email sender', 'retention sweep'). */
  readonly name: string;
  /** Timers, listeners; returns at once. */
  start(): void;
  /** Queues only: new work is queued, look now rather than at the next poll. */
  wake?(): void;
  /** Stops taking work, finishes what it holds, releases what it opened. */
  stop(): Promise<void> | void;
}

/**
 * The tasks of one process, in start order. They stop in reverse: what was started first (the
 * database, the services the others use) is released last. Each stop runs whatever became of
 * the one before, so the database is always closed.
 */
export class TaskList {
  readonly #tasks: readonly BackgroundTask[];
  readonly #log: Log;

  constructor(tasks: readonly BackgroundTask[], log: Log) {
    const names = tasks.map((task) => task.name);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    // `wake` finds a task by its name, and a shutdown log line names its step.
    if (twice !== undefined) throw new Error(`two background tasks are named '${twice}'`);
    this.#tasks = tasks;
    this.#log = log;
  }

  /** The names in start order (reversed, the shutdown steps). */
  names(): string[] {
    return this.#tasks.map((task) => task.name);
  }

  /** The names of the tasks that can be woken: the queues. */
  wakeable(): string[] {
    return this.#tasks.filter((task) => task.wake !== undefined).map((task) => task.name);
  }

  start(): void {
    for (const task of this.#tasks) task.start();
  }

  wake(name: string): void {
    this.#tasks.find((task) => task.name === name)?.wake?.();
  }

  /** Stops every task, last started first; a failed step is logged and the rest still run. */
  async stop(): Promise<void> {
    const failed: unknown[] = [];
    for (const task of [...this.#tasks].reverse()) {
      try {
        await task.stop();
      } catch (err) {
        this.#log.error({ err, step: task.name }, 'shutdown step failed');
        failed.push(err);
      }
    }
    if (failed.length > 0) throw new AggregateError(failed, 'shutdown did not complete cleanly');
  }
}

/** A task that only releases something when the process stops (connections a service keeps open). */
export function closer(name: string, close: () => Promise<unknown> | unknown): BackgroundTask {
  return {
    name,
    start() {},
    async stop() {
      await close();
    },
  };
}
