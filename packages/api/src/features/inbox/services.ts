import type { RefusedOrigins } from './refused-origins.ts';

/** The services the inbox feature adds (built by composition/services.ts). */
export interface InboxServices {
  /** The origins forms refuse, noted for their pages. */
  refusedOrigins: RefusedOrigins;
}
