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
 * The ids among `firsts` (a subquery of at most `rows + 1` ids in `order`, each with its size in a
 * column `bytes`) that fit: among the first `rows`, and starting before `bytes` are reached (the
 * first always fits). Only ids and sizes go through the window, never the large values, which the
 * database would otherwise hold for every row it looks at. A CTE `bounded (id, fits)`; its
 * parameters come first: [rows, bytes, …the subquery's].
 */
const boundedIds = (firsts: string, order: 'asc' | 'desc') =>
  'with bounded as (select id, (row_number() over w <= ? and sum(bytes) over w - bytes < ?) as fits ' +
  `from (${firsts}) firsts window w as (order by id ${order}))`;

/**
 * A statement reading, within bounds, the rows of `table` (as `t`) whose ids and sizes `firsts`
 * selects (see `boundedIds`): `columns` of each row that fits, in `order`, and `more`, whether a
 * row that did not fit follows them.
 */
export const boundedRead = (table: string, columns: string, firsts: string, order: 'asc' | 'desc') =>
  `${boundedIds(firsts, order)} select ${columns}, exists (select 1 from bounded where not fits) as more ` +
  `from bounded join ${table} t on t.id = bounded.id where bounded.fits order by t.id ${order}`;

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

  /**
   * `newestFirst` for rows that can be large: those whose `column` is `value`, below `before`, up
   * to `bounds.rows`, and no more once `size` (an SQL expression: the row's large columns, in
   * bytes) adds up to `bounds.bytes` (the first row always fits). The database weighs the rows by
   * id and size; only those that fit are then read.
   */
  protected async newestFirstWithin(column: string, value: string, before: string | undefined, bounds: ReadBounds, size: string): Promise<Bounded<T>> {
    const table = this.em.getMetadata().get(this.entityName).tableName;
    const firsts = `select id, ${size} as bytes from "${table}" where "${column}" = ?${before ? ' and id < ?' : ''} order by id desc limit ?`;
    const weighed = await this.em.execute<{ id: string; fits: boolean }[]>(`${boundedIds(firsts, 'desc')} select id, fits from bounded`, [
      bounds.rows,
      bounds.bytes,
      value,
      ...(before ? [before] : []),
      bounds.rows + 1,
    ]);
    const ids = weighed.filter((row) => row.fits).map((row) => row.id);
    const rows = ids.length === 0 ? [] : await this.find({ id: { $in: ids } } as object as FilterQuery<T>, { orderBy: { id: 'desc' } as OrderDefinition<T> });
    return { rows: rows as T[], more: weighed.length > ids.length };
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
