import { API_KEY_REVOKED_CHANNEL, type Database, type Subscription } from '@lfk/db';
import type { Log } from '../../log.ts';
import type { ApiKeyCache } from '../../credentials/api-key-cache.ts';
import { followChannel } from '../../infrastructure/channel-fed-cache.ts';

/**
 * Keeps this process's key cache true to revocations made by any process on the same database.
 * Returns null on PGlite, where this process is the only one and revokes through its own cache.
 */
export function followKeyRevocations(db: Database, cache: ApiKeyCache, log: Log): Subscription | null {
  if (db.engine !== 'postgresql') return null;
  return followChannel(db, API_KEY_REVOKED_CHANNEL, cache, log, { news: 'key revocations', channelName: 'key revocation', cache: 'key cache' });
}
