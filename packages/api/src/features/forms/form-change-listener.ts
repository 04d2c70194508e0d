import { type Database, FORM_CHANGED_CHANNEL, type Subscription } from '@lfk/db';
import type { Log } from '../../log.ts';
import type { FormCache } from './form-cache.ts';

/**
 * Keeps this process's form cache true to changes made by any process on the same database (and
 * by SQL outside lfk): the database notifies each change as it commits. Until the channel is
 * listening, and whenever it is lost, the cache is suspended: every submission reads its form.
 */
export function followFormChanges(db: Database, cache: FormCache, log: Log): Subscription {
  cache.suspend();
  // A loss is logged once, not again for each attempt to listen that fails while the database is away.
  let listening = false;
  return db.listen(FORM_CHANGED_CHANNEL, {
    onNotification: (formId) => cache.forget(formId),
    onListening: () => {
      listening = true;
      cache.resume();
      log.info({ channel: FORM_CHANGED_CHANNEL }, 'hearing form changes; form cache on');
    },
    onLost: (error) => {
      cache.suspend();
      if (!listening) return;
      listening = false;
      log.warn({ reason: error?.message ?? 'the connection ended', channel: FORM_CHANGED_CHANNEL }, 'lost the form change channel; form cache off until it is back');
    },
  });
}
