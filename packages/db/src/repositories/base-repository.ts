import { type FilterQuery, LockMode, type OrderDefinition } from '@mikro-orm/core';
import { SqlEntityRepository } from '@mikro-orm/sql';

const FOR_UPDATE = { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } as const;

/** A queue's waiting items (the metrics' depth and age). */
export interface Backlog {
  depth: number;
  /** When the oldest waiting item was made; null when none waits. */
  oldestAt: Date | null;
}

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
