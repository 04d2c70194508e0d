import { createTRPCClient, httpLink, type TRPCClient, type TRPCLink } from '@trpc/client';
import type { AppRouter } from './router.ts';

/** Who the client calls as: a workspace API key, a person's session token, or nobody. */
export type LfkCredentials =
  | { /** A workspace API key, `lfk_…`: the forms scope of its workspace. */ apiKey: string | undefined; sessionToken?: never }
  | { /** A session token, `lfs_…` (what sign-up and login answer): everything its person may do. */ sessionToken: string | undefined; apiKey?: never }
  | { apiKey?: never; sessionToken?: never };

export type LfkClientOptions = LfkCredentials & {
  /** The server's base address, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** A fetch of your own, e.g. undici's with a keep-alive dispatcher or a proxy. */
  fetch?: typeof globalThis.fetch;
  /** Sent as `User-Agent`, so the server's logs tell callers apart. */
  userAgent?: string;
  /** Links that run before the request is sent, e.g. tRPC's `retryLink`. */
  links?: TRPCLink<AppRouter>[];
};

/**
 * The per-call context lfk's client understands:
 * `client.forms.create.mutate(input, { context: { idempotencyKey } })` sends `Idempotency-Key`,
 * so a retried create or submission is answered from the first one instead of making a second.
 */
export interface LfkCallContext {
  idempotencyKey?: string;
}

export type LfkClient = TRPCClient<AppRouter>;

/** A typed client for every lfk procedure, over the server's `/trpc` endpoint. */
export function createLfkClient(options: LfkClientOptions): LfkClient {
  const token = options.apiKey ?? options.sessionToken;
  return createTRPCClient<AppRouter>({
    links: [
      ...(options.links ?? []),
      httpLink({
        url: `${options.baseUrl.replace(/\/+$/, '')}/trpc`,
        headers: ({ op }) => {
          const headers: Record<string, string> = {};
          // A session travels as a bearer too, not as the cookie: cookie writes must pass the browser's CSRF check.
          if (token) headers.authorization = `Bearer ${token}`;
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
