import type { FeedWatch } from './feed-watch.ts';

/** The services the webhooks feature adds (built by composition/services.ts). */
export interface WebhooksServices {
  /** The events feed's held long polls, looked at together (one statement a turn, however many wait). */
  feedWatch: FeedWatch;
}
