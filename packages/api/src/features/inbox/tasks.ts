import type { Database } from '@lfk/db';
import type { Log } from '../../log.ts';
import type { BackgroundTask } from '../../infrastructure/background-task.ts';
import { periodic } from '../../infrastructure/periodic.ts';
import { sweepExpiredSubmissions } from './retention-sweep.ts';

/** The 'retention sweep': deletes submissions past their form's retention, and spam older than 30 days. */
export function retentionSweep(db: Database, now: () => Date, everyMs: number, log: Log): BackgroundTask {
  return periodic('retention sweep', 'delete submissions past their retention and old spam', everyMs, async () => {
    const deleted = await sweepExpiredSubmissions(db, now());
    if (deleted > 0) log.info({ deleted }, 'deleted submissions past their retention and spam older than 30 days');
  }, log);
}
