import { type Database, SpamLearning } from '@lfk/db';
import { type FieldShape, learnFromMark, NOTHING_LEARNED, type WorkspaceLearning } from '@lfk/spam-filter';
import type { EntityManager } from '@mikro-orm/sql';
import { BoundedTtlMap } from '../../bounded-ttl-map.ts';

/** A workspace's learning is read again after this long: a mark on one replica reaches the others' verdicts within it. */
const CACHED_FOR_MS = 10_000;
/** Workspaces whose learning a process keeps at once, and their weights in all (about 100 bytes each: 20 MB). */
const CACHED_WORKSPACES = 1000;
const CACHED_WEIGHTS = 200_000;

/**
 * Each workspace's learning (`@lfk/spam-filter`): read for its submissions' verdicts, from a
 * short cache, and taught by its members' marks, at most `marksPerHour` an hour (past it a mark
 * still marks, and teaches nothing). Never shared between workspaces.
 */
export class SpamLearnings {
  readonly #db: Database;
  readonly #now: () => Date;
  readonly #marksPerHour: number;
  readonly #cache = new BoundedTtlMap<WorkspaceLearning>(CACHED_WORKSPACES, CACHED_WEIGHTS);

  constructor(db: Database, now: () => Date, marksPerHour: number) {
    this.#db = db;
    this.#now = now;
    this.#marksPerHour = marksPerHour;
  }

  async of(workspaceId: string): Promise<WorkspaceLearning> {
    const now = Date.now();
    const cached = this.#cache.get(workspaceId, now);
    if (cached) return cached;
    const stored = await this.#db.fork().getRepository(SpamLearning).readOf(workspaceId);
    const learning = stored.marks === 0 ? NOTHING_LEARNED : { weights: new Map(Object.entries(stored.weights)), scripts: stored.scripts };
    this.#cache.set(workspaceId, learning, now + CACHED_FOR_MS, learning.weights.size + 1);
    return learning;
  }

  /**
   * Teaches a mark in `em`'s transaction, the workspace's row locked, so concurrent marks teach one
   * after the other. Answers whether it taught (false past the hour's allowance).
   */
  async teach(
    em: EntityManager,
    workspaceId: string,
    fields: readonly FieldShape[],
    values: Readonly<Record<string, unknown>>,
    spam: boolean,
  ): Promise<boolean> {
    const now = this.#now();
    const learnings = em.getRepository(SpamLearning);
    await learnings.lock(workspaceId, now);
    const stored = await learnings.readOf(workspaceId);
    const newHour = stored.hourStartedAt === null || now.getTime() - stored.hourStartedAt.getTime() >= 3_600_000;
    const hourStartedAt = newHour ? now : stored.hourStartedAt!;
    const marksInHour = newHour ? 0 : stored.marksInHour;
    if (marksInHour >= this.#marksPerHour) return false;
    const learned = learnFromMark(fields, values, { weights: new Map(Object.entries(stored.weights)), scripts: stored.scripts }, spam);
    await learnings.save(
      workspaceId,
      { weights: Object.fromEntries(learned.weights), scripts: [...learned.scripts], marks: stored.marks + 1, hourStartedAt, marksInHour: marksInHour + 1 },
      now,
    );
    this.#cache.delete(workspaceId);
    return true;
  }
}
