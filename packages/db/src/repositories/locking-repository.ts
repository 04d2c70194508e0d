import { type FilterQuery, LockMode } from '@mikro-orm/core';
import { SqlEntityRepository } from '@mikro-orm/sql';

const FOR_UPDATE = { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } as const;

/**
 * The one way lfk locks a row: `select … for update` through the entity, reloaded from the
 * database (`refresh`) so what the lock holder reads is what it locked. Inside a transaction only.
 */
export class LockingRepository<T extends object> extends SqlEntityRepository<T> {
  findOneForUpdate(where: FilterQuery<T>) {
    return this.findOne(where, FOR_UPDATE);
  }

  findOneForUpdateOrFail(where: FilterQuery<T>) {
    return this.findOneOrFail(where, FOR_UPDATE);
  }
}
