import type { Database, Subscription } from '@lfk/db';
import type { BackgroundTask } from '../../infrastructure/background-task.ts';
import type { Log } from '../../log.ts';
import type { FormCache } from './form-cache.ts';
import { followFormChanges } from './form-change-listener.ts';

/** The 'form change listener': keeps the form cache true to changes made anywhere, on either engine. */
export function formChangeListener(db: Database, cache: FormCache, log: Log): BackgroundTask {
  let subscription: Subscription | undefined;
  return {
    name: 'form change listener',
    start() {
      subscription ??= followFormChanges(db, cache, log);
    },
    async stop() {
      await subscription?.close();
      // Nothing is heard from now on.
      cache.suspend();
    },
  };
}
