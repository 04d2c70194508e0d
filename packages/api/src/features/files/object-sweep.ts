import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Database, ObjectDeletion } from '@lfk/db';
import type { ObjectStorage } from './storage/object-storage.ts';

const BATCH = 100;

/**
 * Deletes from storage the objects due for deletion (deleted files', abandoned uploads'), a batch
 * per transaction: the rows are taken (locked, skipping another replica's) and removed only once
 * their objects are gone, so a failure leaves them for the next sweep, and each object is swept
 * once across replicas. Answers how many objects it deleted.
 */
export async function sweepObjects(db: Database, storage: ObjectStorage, now: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const keys = await db.fork().transactional(async (em) => {
      const due = await em.getRepository(ObjectDeletion).takeDue(now, BATCH);
      for (const key of due) await storage.delete(key);
      return due;
    });
    deleted += keys.length;
    if (keys.length < BATCH) return deleted;
  }
}

/**
 * Removes spool files older than `olderThanMs`: what a process that died mid-upload left in the
 * spool folder (a live upload's file is never that old: requests have a timeout).
 */
export async function sweepSpool(spoolDir: string, now: Date, olderThanMs: number): Promise<number> {
  let removed = 0;
  for (const name of await readdir(spoolDir).catch(() => [] as string[])) {
    if (!name.endsWith('.part')) continue;
    const path = join(spoolDir, name);
    const info = await stat(path).catch(() => null);
    if (info && now.getTime() - info.mtimeMs > olderThanMs) {
      await rm(path, { force: true });
      removed += 1;
    }
  }
  return removed;
}
