import { API_KEY_REVOKED_CHANNEL, type Database, type Subscription } from '@lfk/db';
import type { Log } from '../../log.ts';
import type { ApiKeyCache } from '../../credentials/api-key-cache.ts';

/**
 * Keeps this process's key cache true to revocations made by any process on the same database.
 * Until the channel is listening, and whenever it is lost, the cache is suspended: every request
 * asks the database, so a revocation that went unheard is never served from memory.
 * Returns null on PGlite, where this process is the only one and revokes through its own cache.
 */
export function followKeyRevocations(db: Database, cache: ApiKeyCache, log: Log): Subscription | null {
  if (db.engine !== 'postgresql') return null;
  cache.suspend();
  // A loss is logged once, not again for each attempt to listen that fails while the database is away.
  let listening = false;
  return db.listen(API_KEY_REVOKED_CHANNEL, {
    onNotification: (keyHash) => cache.forget(keyHash),
    onListening: () => {
      listening = true;
      cache.resume();
      log.info({ channel: API_KEY_REVOKED_CHANNEL }, 'hearing key revocations; key cache on');
    },
    onLost: (error) => {
      cache.suspend();
      if (!listening) return;
      listening = false;
      log.warn({ reason: error?.message ?? 'the connection ended', channel: API_KEY_REVOKED_CHANNEL }, 'lost the key revocation channel; key cache off until it is back');
    },
  });
}
