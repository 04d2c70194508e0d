import { type FilterQuery, LockMode, type OrderDefinition } from '@mikro-orm/core';
import { SqlEntityRepository } from '@mikro-orm/sql';

const FOR_UPDATE = { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } as const;

/** A queue's waiting items (the metrics' depth and age). */
export interface Backlog {
  depth: number;
  /** When the oldest waiting item was made; null when none waits. */
  oldestAt: Date | null;
}

/**
 * Rows read in order up to a count and a number of bytes: what fitted, and whether more follow
 * (a next page, a next batch) because one of the bounds was reached.
 */
export interface Bounded<T> {
  rows: T[];
  more: boolean;
}

/** A read's bounds: at most `rows` rows, and no more rows once their sizes add up to `bytes` (the first always fits). */
export interface ReadBounds {
  rows: number;
  bytes: number;
}

/**
 * A statement reading `firsts` (a subquery of at most `rows + 1` rows, each with its size in a
 * column `bytes`) in `order`: `columns` (which may use `fits`) and `fits`, whether the row is among
 * the first `rows` and starts before `bytes` are reached. The bounds' parameters come first:
 * [rows, bytes, …the subquery's].
 */
export const boundedRead = (columns: string, firsts: string, order: 'asc' | 'desc') =>
  `select ${columns}, fits from (select *, (row_number() over w <= ? and sum(bytes) over w - bytes < ?) as fits ` +
  `from (${firsts}) firsts window w as (order by id ${order})) bounded order by id ${order}`;

/** What every repository can do besides MikroORM's own: lock a row the one way, read a page of a list. */
export class BaseRepository<T extends { id: string }> extends SqlEntityRepository<T> {
  /**
   * The one way lfk locks a row: `select … for update` through the entity, reloaded from the
   * database (`refresh`) so what the lock holder reads is what it locked. Inside a transaction only.
   */
  findOneForUpdate(where: FilterQuery<T>) {
    return this.findOne(where, FOR_UPDATE);
  }

  /**
   * `findOneForUpdate` for a row the caller found a moment ago: gone by now (deleted meanwhile,
   * with its workspace say), it throws `gone()`, the caller's own "not found", never a bare 500.
   */
  findOneForUpdateOrFail(where: FilterQuery<T>, gone: () => Error) {
    return this.findOneOrFail(where, { ...FOR_UPDATE, failHandler: gone });
  }

  /**
   * Up to `limit` rows matching `where`, newest first, below the id `before` when given: one page
   * of a list. Ids sort by creation time, so newest first is id descending.
   */
  async newestFirst(where: FilterQuery<T>, before: string | undefined, limit: number): Promise<T[]> {
    const filter = { ...(where as object), ...(before ? { id: { $lt: before } } : {}) } as FilterQuery<T>;
    return (await this.find(filter, { orderBy: { id: 'desc' } as OrderDefinition<T>, limit })) as T[];
  }

  /** How many rows of this repository's table match `where` (SQL), and the oldest one's `created_at`. */
  protected async backlogWhere(where: string): Promise<Backlog> {
    const table = this.em.getMetadata().get(this.entityName).tableName;
    const [row] = await this.em.execute<{ depth: number | string; oldest_at: Date | string | null }[]>(
      `select count(*) as depth, min(created_at) as oldest_at from "${table}" where ${where}`,
    );
    return { depth: Number(row?.depth ?? 0), oldestAt: row?.oldest_at ? new Date(row.oldest_at) : null };
  }
}
