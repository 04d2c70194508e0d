import type { Database } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';

/** Rows one batch touches: a short transaction, so no lock is held long and other writes keep flowing. */
export const BATCH_SIZE = 1000;

/**
 * Runs `batch` (which handles up to `limit` rows and answers how many it did), each time in a
 * transaction of its own, until one does fewer than `limit`. Answers the total. For work on many
 * rows (deleting a form's submissions, the retention sweep) that must never be one long transaction.
 */
export async function inBatches(db: Database, batch: (em: EntityManager, limit: number) => Promise<number>, limit = BATCH_SIZE): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await db.fork().transactional((em) => batch(em, limit));
    total += done;
    if (done < limit) return total;
  }
}
