import type { Database } from '@lfk/db';
import type { BackgroundTask } from '../../infrastructure/background-task.ts';
import { periodic } from '../../infrastructure/periodic.ts';
import type { Log } from '../../log.ts';
import { sweepObjects, sweepOrphans, sweepSpool } from './object-sweep.ts';
import type { FilesServices } from './services.ts';

/** A spool file this old belongs to no live request (each has LFK_REQUEST_TIMEOUT, at most an hour). */
const SPOOL_LEFTOVER_MS = 2 * 60 * 60_000;

/**
 * The 'upload sweep', every half `LFK_UPLOAD_SWEEP_INTERVAL`: deletes the objects due for deletion
 * (deleted files', and those of uploads not kept whose deletion failed), spool files a dead process
 * left, and takes the orphan walk one batch further (`sweepOrphans`: objects no file row names,
 * older than `LFK_UPLOAD_GRACE`), from where its last batch stopped, round and round the storage.
 */
export function uploadSweep(db: Database, files: FilesServices['files'], now: () => Date, log: Log): BackgroundTask {
  let orphansAfter: string | null = null;
  return periodic(
    'upload sweep',
    'delete stored files no submission holds',
    Math.max(1000, files.settings.uploadSweepMs / 2),
    async () => {
      const objects = await sweepObjects(db, files.storage, now());
      const spool = await sweepSpool(files.settings.spoolDir, now(), SPOOL_LEFTOVER_MS);
      const orphans = await sweepOrphans(db, files.storage, now(), files.settings.uploadGraceMs, orphansAfter);
      orphansAfter = orphans.next;
      if (objects > 0 || spool > 0 || orphans.deleted > 0) log.info({ objects, spool, orphans: orphans.deleted }, 'deleted stored files no submission holds');
    },
    log,
  );
}
