import { Draft } from '@lfk/db';
import type { Services } from '../../context.ts';
import type { BackgroundTask } from '../../infrastructure/background-task.ts';
import { periodic } from '../../infrastructure/periodic.ts';
import type { Log } from '../../log.ts';

/** How often drafts past their lifetime are deleted: a read never answers one (`findLive`), so this only frees the room. */
const SWEEP_EVERY_MS = 10 * 60_000;

/** The 'draft sweep': deletes drafts whose lifetime has ended, a batch at a time, once across replicas. */
export function draftSweep(services: Pick<Services, 'db' | 'now'>, log: Log): BackgroundTask {
  return periodic(
    'draft sweep',
    'delete drafts past their lifetime',
    SWEEP_EVERY_MS,
    async () => {
      const drafts = services.db.fork().getRepository(Draft);
      let deleted = 0;
      for (let batch = await drafts.sweepExpired(services.now()); batch > 0; batch = await drafts.sweepExpired(services.now())) deleted += batch;
      if (deleted > 0) log.info({ deleted }, 'deleted drafts past their lifetime');
    },
    log,
  );
}
