import type { ConcurrencyLimit } from '../../infrastructure/concurrency-limit.ts';
import type { RefusedOrigins } from './refused-origins.ts';
import type { Rspamd } from './rspamd.ts';
import type { MessageSightings } from './sightings.ts';
import type { SpamLearnings } from './spam-learnings.ts';

/** The services the inbox feature adds (built by its feature.ts). */
export interface InboxServices {
  /** The origins forms refuse, noted for their pages. */
  refusedOrigins: RefusedOrigins;
  /** Exports streaming now in this process, at most `LFK_EXPORTS_PER_PERSON` per person (`exportLimit`). */
  exports: ConcurrencyLimit;
  /** What each workspace's marks taught the content filter. */
  spamLearnings: SpamLearnings;
  /** The forms each message came to in the last day, on this process. */
  messageSightings: MessageSightings;
  /** rspamd, when `LFK_RSPAMD_URL` is set. */
  rspamd: Rspamd | null;
}
