import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Database, ObjectDeletion, SubmissionFile } from '@lfk/db';
import { isUploadKey } from './storage/object-key.ts';
import type { ObjectStorage } from './storage/object-storage.ts';

const BATCH = 100;
/** Keys the orphan walk looks at in one run of the upload sweep: one page of `ListObjectsV2`, one statement. */
export const ORPHAN_BATCH = 1000;

/**
 * Deletes from storage the objects due for deletion (deleted files', and those of uploads not kept
 * whose deletion failed), a batch
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

/** One batch of the orphan walk: what it deleted, and where the next batch starts. */
export interface OrphanBatch {
  /** Objects deleted: no file row names them, and they were stored more than the grace ago. */
  deleted: number;
  /** The last key looked at, after which the next batch starts; null when the walk reached the end (the next starts again from the first). */
  next: string | null;
}

/**
 * One batch of the orphan walk: up to `limit` keys of the storage, in order, after `after`. Each
 * that has the shape of an upload's key (`newObjectKey`), is named by no file row, and was stored
 * more than `graceMs` before `now` is deleted: the object of an upload whose submission never
 * committed (a crash between storing and committing; a failure whose deletion could not even be
 * scheduled). Safe against an upload still in flight: `now` is read before the rows are, and a
 * submission commits only within half the grace of when its storing began (`keepUploads`), so a
 * row that names an object this old was committed before the rows were read. Replicas may walk at
 * once: deleting an object twice is no error.
 */
export async function sweepOrphans(
  db: Database,
  storage: ObjectStorage,
  now: Date,
  graceMs: number,
  after: string | null = null,
  limit = ORPHAN_BATCH,
): Promise<OrphanBatch> {
  const keys: string[] = [];
  for await (const key of storage.list(after ?? undefined)) {
    keys.push(key);
    if (keys.length === limit) break;
  }
  const candidates = keys.filter(isUploadKey);
  const named = await db.fork().getRepository(SubmissionFile).objectKeysNamed(candidates);
  let deleted = 0;
  for (const key of candidates) {
    if (named.has(key)) continue;
    const storedAt = await storage.storedAt(key);
    if (storedAt === null || now.getTime() - storedAt.getTime() <= graceMs) continue;
    await storage.delete(key);
    deleted += 1;
  }
  return { deleted, next: keys.length === limit ? keys.at(-1)! : null };
}

/** The orphan walk from the first key to the last, batch by batch: how many objects it deleted. */
export async function sweepAllOrphans(db: Database, storage: ObjectStorage, now: Date, graceMs: number, limit = ORPHAN_BATCH): Promise<number> {
  let deleted = 0;
  let after: string | null = null;
  do {
    const batch: OrphanBatch = await sweepOrphans(db, storage, now, graceMs, after, limit);
    deleted += batch.deleted;
    after = batch.next;
  } while (after !== null);
  return deleted;
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
