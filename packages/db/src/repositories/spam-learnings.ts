import { SqlEntityRepository } from '@mikro-orm/sql';
import type { ISpamLearning } from '../entities/spam-learning.ts';

/** A workspace's learning as the filter reads it; an empty one when its members never marked anything. */
export interface StoredLearning {
  weights: Record<string, number>;
  scripts: string[];
  marks: number;
  hourStartedAt: Date | null;
  marksInHour: number;
}

interface LearningRow {
  weights: Record<string, number> | string;
  scripts: string[] | string;
  marks: number;
  hour_started_at: Date | string;
  marks_in_hour: number;
}

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export class SpamLearningRepository extends SqlEntityRepository<ISpamLearning> {
  async readOf(workspaceId: string): Promise<StoredLearning> {
    const [row] = await this.em.execute<LearningRow[]>(
      'select weights, scripts, marks, hour_started_at, marks_in_hour from spam_learnings where workspace_id = ?',
      [workspaceId],
    );
    if (!row) return { weights: {}, scripts: [], marks: 0, hourStartedAt: null, marksInHour: 0 };
    return {
      weights: json(row.weights),
      scripts: json(row.scripts),
      marks: row.marks,
      hourStartedAt: new Date(row.hour_started_at),
      marksInHour: row.marks_in_hour,
    };
  }

  /** Locks the workspace's row (made empty if it has none) to the end of the transaction: marks teach one at a time. */
  async lock(workspaceId: string, now: Date): Promise<void> {
    await this.em.execute(
      `insert into spam_learnings (workspace_id, weights, scripts, marks, hour_started_at, marks_in_hour, updated_at)
       values (?, '{}', '[]', 0, ?, 0, ?) on conflict (workspace_id) do nothing`,
      [workspaceId, now, now],
    );
    await this.em.execute('select 1 from spam_learnings where workspace_id = ? for update', [workspaceId]);
  }

  async save(workspaceId: string, learning: Omit<StoredLearning, 'hourStartedAt'> & { hourStartedAt: Date }, now: Date): Promise<void> {
    await this.em.execute(
      'update spam_learnings set weights = ?, scripts = ?, marks = ?, hour_started_at = ?, marks_in_hour = ?, updated_at = ? where workspace_id = ?',
      [JSON.stringify(learning.weights), JSON.stringify(learning.scripts), learning.marks, learning.hourStartedAt, learning.marksInHour, now, workspaceId],
    );
  }
}
