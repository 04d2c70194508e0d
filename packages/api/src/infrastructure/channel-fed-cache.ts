import type { Database, Subscription } from '@lfk/db';
import type { Log } from '../log.ts';

/** A cache the database keeps true: an entry forgotten by a notification's payload, all of it suspended while unheard. */
export interface ChannelFedCache {
  forget(key: string): void;
  suspend(): void;
  resume(): void;
}

/** How the logs name a channel's news and its cache: "hearing key revocations; key cache on". */
export interface ChannelWords {
  /** What the channel says: "key revocations". */
  news: string;
  /** Its name in the loss line: "key revocation". */
  channelName: string;
  /** The cache: "key cache". */
  cache: string;
}

/**
 * Keeps this process's `cache` true to what any process on the same database changes: the database
 * notifies each change on `channel` as it commits. Until the channel is listening, and whenever it
 * is lost, the cache is suspended (every request asks the database), so a change that went
 * unheard is never served from memory.
 */
export function followChannel(db: Database, channel: string, cache: ChannelFedCache, log: Log, words: ChannelWords): Subscription {
  cache.suspend();
  // A loss is logged once, not again for each attempt to listen that fails while the database is away.
  let listening = false;
  return db.listen(channel, {
    onNotification: (key) => cache.forget(key),
    onListening: () => {
      listening = true;
      cache.resume();
      log.info({ channel }, `hearing ${words.news}; ${words.cache} on`);
    },
    onLost: (error) => {
      cache.suspend();
      if (!listening) return;
      listening = false;
      log.warn({ reason: error?.message ?? 'the connection ended', channel }, `lost the ${words.channelName} channel; ${words.cache} off until it is back`);
    },
  });
}
