import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from './root.ts';

export interface LfkClientOptions {
  /** The server's base address, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** A workspace API key (`lfk_…`) or a session token (`lfs_…`). */
  token?: string | undefined;
  /** A fetch of your own, e.g. undici's with a keep-alive dispatcher. */
  fetch?: typeof globalThis.fetch;
}

/** A typed client for every lfk procedure, over the `/trpc` endpoint. */
export function createLfkClient(options: LfkClientOptions): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${options.baseUrl.replace(/\/+$/, '')}/trpc`,
        headers: () => (options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    ],
  });
}

export type { AppRouter };
