import type { EntityManager } from '@mikro-orm/sql';

export interface GroupCommitOptions {
  /** The most writes one batch takes. */
  maxItems: number;
  /** What one batch may weigh (by `weigh`) before the next write waits for the next batch; one write alone always goes. */
  maxWeight: number;
}

interface Waiting<T> {
  item: T;
  weight: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: writes that arrive while one is being written go together in the next, as one
 * statement. For a database that runs one statement at a time (the embedded one), where a
 * statement's fixed cost (parsing, planning, committing, the trip to its thread) is most of a
 * small write's. A write that finds nothing in flight goes at once, alone: batching costs no
 * latency, it only takes what queued anyway. A batch that fails is written again one write at a
 * time, so each write gets its own outcome and one bad row never fails the others.
 */
export class GroupCommit<T> {
  readonly #write: (items: T[]) => Promise<void>;
  readonly #weigh: (item: T) => number;
  readonly #options: GroupCommitOptions;
  #queue: Waiting<T>[] = [];
  #writing = false;

  constructor(write: (items: T[]) => Promise<void>, weigh: (item: T) => number, options: GroupCommitOptions) {
    this.#write = write;
    this.#weigh = weigh;
    this.#options = options;
  }

  /** Resolves once `item` is committed; rejects with its own error. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, weight: this.#weigh(item), resolve, reject });
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length > 0) await this.#writeBatch(this.#takeBatch());
    } finally {
      this.#writing = false;
    }
  }

  #takeBatch(): Waiting<T>[] {
    let count = 1;
    let weight = this.#queue[0]!.weight;
    while (count < this.#queue.length && count < this.#options.maxItems && weight + this.#queue[count]!.weight <= this.#options.maxWeight) {
      weight += this.#queue[count]!.weight;
      count++;
    }
    return this.#queue.splice(0, count);
  }

  async #writeBatch(batch: Waiting<T>[]): Promise<void> {
    try {
      await this.#write(batch.map((waiting) => waiting.item));
      for (const waiting of batch) waiting.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const waiting of batch) {
        await this.#write([waiting.item]).then(waiting.resolve, waiting.reject);
      }
    }
  }
}

/** The group commit each embedded database's writers share, by its MikroORM connection (`openDatabase` registers it). */
const groups = new WeakMap<object, Map<string, GroupCommit<never>>>();

/** Called by `openDatabase` for the embedded engine: writes outside a transaction on `connection` may be grouped. */
export function useGroupCommit(connection: object): void {
  groups.set(connection, new Map());
}

/**
 * The group commit named `name` on `em`'s database, made by `create` the first time; undefined
 * when writes are not grouped there (PostgreSQL, whose pool runs them side by side) or `em` is in a
 * transaction (whose writes must be its own).
 */
export function groupCommitOf<T>(em: EntityManager, name: string, create: () => GroupCommit<T>): GroupCommit<T> | undefined {
  if (em.isInTransaction()) return undefined;
  const named = groups.get(em.getConnection());
  if (!named) return undefined;
  let group = named.get(name) as unknown as GroupCommit<T> | undefined;
  if (!group) {
    group = create();
    named.set(name, group as unknown as GroupCommit<never>);
  }
  return group;
}
