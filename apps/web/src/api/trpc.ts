import { MAX_BATCH_CALLS } from '@lfk/vocabulary';
import type { AppRouter } from '@lfk/client';
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { isSignedOut, problemOf } from './problems.ts';
import { reauthenticationLink } from './reauthentication.ts';

/** Called when the server says the session is gone (expired, or signed out in another tab). */
let whenSignedOut: () => void = () => {};
export function onSignedOut(handler: () => void): void {
  whenSignedOut = handler;
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError(error) {
      if (isSignedOut(problemOf(error))) whenSignedOut();
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A 4xx will be the same next time; only a network failure or a 5xx is worth one more try.
      retry: (failures, error) => failures < 2 && (problemOf(error).status ?? 500) >= 500,
    },
  },
});

/**
 * The typed client, on the same origin: the `lfk_session` cookie rides along by itself, and the
 * server's CSRF rule (writes from its own origin) holds. At most 10 calls per batch, the server's cap.
 * A call refused for sudo mode asks the person to confirm it's them, then goes again (reauthentication.ts).
 */
export const trpcClient = createTRPCClient<AppRouter>({
  links: [reauthenticationLink, httpBatchLink({ url: '/trpc', maxItems: MAX_BATCH_CALLS })],
});

/** `trpc.forms.list.queryOptions(...)` and friends, for TanStack Query's hooks and the router's loaders. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
