import type { IObjectDeletion } from '../entities/object-deletion.ts';
import { SqlEntityRepository } from '@mikro-orm/sql';

export class ObjectDeletionRepository extends SqlEntityRepository<IObjectDeletion> {
  /** Says these objects are to be deleted after `deleteAfter` unless their rows are taken back first (`takeBack`). */
  async schedule(objectKeys: string[], deleteAfter: Date): Promise<void> {
    if (objectKeys.length === 0) return;
    await this.em.execute(
      `insert into object_deletions (object_key, delete_after) values ${objectKeys.map(() => '(?, ?)').join(', ')} on conflict (object_key) do nothing`,
      objectKeys.flatMap((key) => [key, deleteAfter]),
    );
  }

  /**
   * Takes back the scheduled deletion of these objects, in this transaction: how many were still
   * scheduled. Fewer than asked means the sweep took some first (they are deleted, or being so), so
   * the caller must not commit anything that points at them. A sweep holding a row makes this wait.
   */
  async takeBack(objectKeys: string[]): Promise<number> {
    if (objectKeys.length === 0) return 0;
    const rows = await this.em.execute<{ object_key: string }[]>(
      `delete from object_deletions where object_key in (${objectKeys.map(() => '?').join(', ')}) returning object_key`,
      objectKeys,
    );
    return rows.length;
  }

  /**
   * Up to `limit` objects due for deletion at `now`, their rows deleted in this transaction and held
   * by it: the caller deletes the objects, then commits (a failure rolls back, and a later sweep
   * tries again). Rows another replica's sweep holds are skipped.
   */
  async takeDue(now: Date, limit: number): Promise<string[]> {
    const rows = await this.em.execute<{ object_key: string }[]>(
      'delete from object_deletions where object_key in (' +
        'select object_key from object_deletions where delete_after <= ? order by delete_after limit ? for update skip locked) returning object_key',
      [now, limit],
    );
    return rows.map((r) => r.object_key);
  }

  /** How many objects wait for deletion (the tests' and the metrics' view). */
  async waiting(): Promise<number> {
    const [row] = await this.em.execute<{ n: number | string }[]>('select count(*) as n from object_deletions');
    return Number(row?.n ?? 0);
  }
}
