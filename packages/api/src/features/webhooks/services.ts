import type { LongPolls } from '../../infrastructure/long-polls.ts';
import type { Outbound } from '../../infrastructure/outbound-requests.ts';
import type { FeedWatch } from './feed-watch.ts';

/** The services the webhooks feature adds (built by its feature.ts). */
export interface WebhooksServices {
  /** lfk's requests to webhook receivers: safe by default (public https addresses only). */
  outbound: Outbound;
  /** Requests held open (the events feed's long polls): how many each person and workspace may hold, and their end when the server stops. */
  longPolls: LongPolls;
  /** The events feed's held long polls, looked at together (one statement a turn, however many wait). */
  feedWatch: FeedWatch;
}
