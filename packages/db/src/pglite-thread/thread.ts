/**
 * PGlite as the main thread sees it when it runs in a thread of its own (worker.ts): the few
 * methods MikroORM's PGlite driver (kysely's), the notification listener and the test world call,
 * each a message to that thread. Messages keep their order both ways, so a notification sent by a
 * commit arrives before the answer to the statement that committed (worker.ts says why).
 */
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { Reply, Request, WorkerOptions } from './worker.ts';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type RequestBody = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
type Result = { rows: unknown[]; affectedRows?: number; fields?: unknown[] };

export interface ThreadOptions {
  dataDir: string;
  startParams: string[];
  loadDataDir?: { type: string; arrayBuffer(): Promise<ArrayBuffer> };
  /** Limits on the thread's own JavaScript heap (Node's defaults otherwise). */
  resourceLimits?: ResourceLimits;
}

/**
 * What every request gets once the thread is gone: SQLSTATE 57P01 (`admin_shutdown`), so it is
 * read as the database being unreachable (database-failures.ts), never as a fault of the request.
 */
function threadGone(reason: string): Error {
  return Object.assign(new Error(`the embedded database stopped: ${reason}`), { code: '57P01' });
}

export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #next = 1;
  #gone: Error | undefined;
  #closing = false;
  readonly #lost: Promise<Error>;
  #markLost!: (error: Error) => void;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#lost = new Promise((resolve) => (this.#markLost = resolve));
    worker.on('message', (reply: Reply) => {
      if ('notification' in reply) {
        for (const listener of this.#listeners.get(reply.notification.channel) ?? []) listener(reply.notification.payload);
        return;
      }
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(Object.assign(new Error(String(reply.error.message)), reply.error));
    });
    worker.on('error', (error) => this.#stop(threadGone(error.message)));
    worker.on('exit', (code) => this.#stop(threadGone(`its thread exited with code ${code}`)));
  }

  static async start(options: ThreadOptions): Promise<PgliteThread> {
    const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    const workerData: WorkerOptions = {
      dataDir: options.dataDir,
      startParams: options.startParams,
      ...(loadDataDir ? { loadDataDir, loadDataDirType: options.loadDataDir!.type } : {}),
    };
    const worker = new Worker(new URL('./worker.ts', import.meta.url), {
      workerData,
      transferList: loadDataDir ? [loadDataDir] : [],
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
    const thread = new PgliteThread(worker);
    // The worker answers request 0 once PGlite is open (or fails it if PGlite cannot open).
    await new Promise((resolve, reject) => thread.#pending.set(0, { resolve, reject }));
    return thread;
  }

  /** Settles when the thread stops without being closed (PGlite failed, or ran out of memory). */
  get lost(): Promise<Error> {
    return this.#lost;
  }

  #stop(error: Error): void {
    if (this.#gone) return;
    this.#gone = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    if (!this.#closing) this.#markLost(error);
  }

  #ask(body: RequestBody, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#gone) return Promise.reject(this.#gone);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...body, id }, transfer);
    });
  }

  get closed(): boolean {
    return this.#gone !== undefined;
  }

  /** Open by the time anyone holds it (kysely asks). */
  get ready(): boolean {
    return this.#gone === undefined;
  }

  get waitReady(): Promise<void> {
    return Promise.resolve();
  }

  query(sql: string, params: unknown[] = [], _options?: unknown, tx?: number): Promise<Result> {
    return this.#ask({ op: 'query', sql, params, ...(tx === undefined ? {} : { tx }) }) as Promise<Result>;
  }

  async transaction<T>(callback: (tx: { query: PgliteThread['query'] }) => Promise<T>): Promise<T> {
    const tx = (await this.#ask({ op: 'begin' })) as number;
    let result: T;
    try {
      result = await callback({ query: (sql, params, options) => this.query(sql, params, options, tx) });
    } catch (error) {
      await this.#ask({ op: 'end', tx, commit: false }).catch(() => {});
      throw error;
    }
    await this.#ask({ op: 'end', tx, commit: true });
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.#listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
      await this.#ask({ op: 'listen', channel });
    }
    listeners.add(callback);
    return async () => {
      listeners.delete(callback);
      if (listeners.size > 0 || this.#listeners.get(channel) !== listeners) return;
      this.#listeners.delete(channel);
      await this.#ask({ op: 'unlisten', channel });
    };
  }

  /** PGlite's `dumpDataDir`: the data directory as a tarball. */
  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'none'): Promise<Blob> {
    const { bytes, type } = (await this.#ask({ op: 'dump', compression })) as { bytes: ArrayBuffer; type: string };
    return new Blob([bytes], { type });
  }

  async close(): Promise<void> {
    if (this.#gone) return;
    this.#closing = true;
    try {
      await this.#ask({ op: 'close' });
    } finally {
      await this.#worker.terminate();
    }
  }
}
