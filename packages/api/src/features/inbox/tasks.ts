import type { Database } from '@lfk/db';
import type { Log } from '../../log.ts';
import type { BackgroundTask } from '../../infrastructure/background-task.ts';
import { periodic } from '../../infrastructure/periodic.ts';
import { sweepExpiredSubmissions, sweepPastEvents } from './retention-sweep.ts';

/**
 * The 'retention sweep': deletes submissions past their form's retention, spam older than 30
 * days, and the forms' events older than a webhook recover reaches.
 */
export function retentionSweep(db: Database, now: () => Date, everyMs: number, log: Log): BackgroundTask {
  return periodic(
    'retention sweep',
    'delete submissions past their retention, old spam and old form events',
    everyMs,
    async () => {
      const deleted = await sweepExpiredSubmissions(db, now());
      if (deleted > 0) log.info({ deleted }, 'deleted submissions past their retention and spam older than 30 days');
      await sweepPastEvents(db, now());
    },
    log,
  );
}
