/**
 * What lfk counts as it works, for the server's `/metrics` (prom-client, apps/server/src/metrics.ts).
 * The counting is done where the work is; turned off, it is `NO_METRICS`.
 */

/**
 * How an API key presented as a bearer credential was answered: accepted; refused as a key that
 * stopped working (revoked, expired, rolled, leaked), from an address its allowlist does not name,
 * as matching no key, or as malformed; or held back (too many guesses from the address).
 */
export type KeyCheckOutcome = 'accepted' | 'stopped' | 'address_not_allowed' | 'unknown' | 'malformed' | 'held_back';
/** Where the answer came from: the in-memory cache, the database, or neither (malformed, held back). */
export type KeyCheckSource = 'cache' | 'database' | 'none';
import type { AutoReplySkipReason } from '@lfk/vocabulary';

/** One attempt to deliver a webhook: delivered, failed with attempts left, or failed for good. */
export type WebhookAttemptOutcome = 'delivered' | 'retrying' | 'failed';

export interface Metrics {
  keyChecked(outcome: KeyCheckOutcome, source: KeyCheckSource): void;
  webhookAttempted(outcome: WebhookAttemptOutcome): void;
  /** An export started streaming (`+1`) or ended, whether read to its end or not (`-1`). */
  exportsStreaming(change: 1 | -1): void;
  /** Submissions an export read from the database (one batch). */
  exportRowsRead(rows: number): void;
  /** An auto-reply a submission did not send, and why. */
  autoReplySkipped(reason: AutoReplySkipReason): void;
}

export const NO_METRICS: Metrics = { keyChecked() {}, webhookAttempted() {}, exportsStreaming() {}, exportRowsRead() {}, autoReplySkipped() {} };
