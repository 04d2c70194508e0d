import { createTRPCClient, httpLink, type TRPCClient, type TRPCLink } from '@trpc/client';
import type { AppRouter } from './root.ts';

export interface LfkClientOptions {
  /** The server's base address, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** A workspace API key (`lfk_…`) or a session token (`lfs_…`). */
  token?: string | undefined;
  /** A fetch of your own, e.g. undici's with a keep-alive dispatcher. */
  fetch?: typeof globalThis.fetch;
  /** Sent as `User-Agent`, so the server's logs tell callers apart. */
  userAgent?: string;
  /** Links that run before the request is sent, e.g. tRPC's `retryLink`. */
  links?: TRPCLink<AppRouter>[];
}

/**
 * The per-call context lfk's client understands:
 * `client.forms.create.mutate(input, { context: { idempotencyKey } })` sends `Idempotency-Key`,
 * so a retried create or submission is answered from the first one instead of making a second.
 */
export interface LfkCallContext {
  idempotencyKey?: string;
}

/** A typed client for every lfk procedure, over the `/trpc` endpoint. */
export function createLfkClient(options: LfkClientOptions): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [
      ...(options.links ?? []),
      httpLink({
        url: `${options.baseUrl.replace(/\/+$/, '')}/trpc`,
        headers: ({ op }) => {
          const headers: Record<string, string> = {};
          if (options.token) headers.authorization = `Bearer ${options.token}`;
          if (options.userAgent) headers['user-agent'] = options.userAgent;
          const { idempotencyKey } = op.context as LfkCallContext;
          if (typeof idempotencyKey === 'string') headers['idempotency-key'] = idempotencyKey;
          return headers;
        },
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    ],
  });
}

export type { AppRouter };
