import type { Database } from '@lfk/db';
import type { BackgroundTask } from '../../infrastructure/background-task.ts';
import { periodic } from '../../infrastructure/periodic.ts';
import type { Log } from '../../log.ts';
import { sweepObjects, sweepSpool } from './object-sweep.ts';
import type { FilesServices } from './services.ts';

/** A spool file this old belongs to no live request (each has LFK_REQUEST_TIMEOUT, at most an hour). */
const SPOOL_LEFTOVER_MS = 2 * 60 * 60_000;

/**
 * The 'upload sweep': deletes the objects of deleted files and abandoned uploads, and spool files
 * a dead process left, every half `LFK_UPLOAD_SWEEP_INTERVAL` (an abandoned upload's objects are
 * due half an interval after they were stored, so they are gone within one).
 */
export function uploadSweep(db: Database, files: FilesServices['files'], now: () => Date, log: Log): BackgroundTask {
  return periodic(
    'upload sweep',
    'delete stored files no submission holds',
    Math.max(1000, files.settings.uploadSweepMs / 2),
    async () => {
      const objects = await sweepObjects(db, files.storage, now());
      const spool = await sweepSpool(files.settings.spoolDir, now(), SPOOL_LEFTOVER_MS);
      if (objects > 0 || spool > 0) log.info({ objects, spool }, 'deleted stored files no submission holds');
    },
    log,
  );
}
