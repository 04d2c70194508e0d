import { type Database, FORM_CHANGED_CHANNEL, type Subscription } from '@lfk/db';
import type { Log } from '../../log.ts';
import { followChannel } from '../../infrastructure/channel-fed-cache.ts';
import type { FormCache } from './form-cache.ts';

/**
 * Keeps this process's form cache true to changes made by any process on the same database (and
 * by SQL outside lfk), on either engine: the triggers notify each change as it commits.
 */
export function followFormChanges(db: Database, cache: FormCache, log: Log): Subscription {
  return followChannel(db, FORM_CHANGED_CHANNEL, cache, log, { news: 'form changes', channelName: 'form change', cache: 'form cache' });
}
