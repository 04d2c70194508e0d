import type { ConcurrencyLimit } from '../../infrastructure/concurrency-limit.ts';
import type { RefusedOrigins } from './refused-origins.ts';

/** The services the inbox feature adds (built by its feature.ts). */
export interface InboxServices {
  /** The origins forms refuse, noted for their pages. */
  refusedOrigins: RefusedOrigins;
  /** Exports streaming now in this process, at most `LFK_EXPORTS_PER_PERSON` per person (`exportLimit`). */
  exports: ConcurrencyLimit;
}
