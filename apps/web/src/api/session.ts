import { redirect } from '@tanstack/react-router';
import { isSignedOut, problemOf } from './problems.ts';
import { queryClient, trpc } from './trpc.ts';

/**
 * The signed-in person, or a redirect to the sign-in page: for routes that need a session. With
 * `returnTo` (a path of this app), signing in comes back to it.
 */
export async function requireSession(returnTo?: string) {
  try {
    return await queryClient.ensureQueryData(trpc.auth.session.queryOptions());
  } catch (error) {
    if (isSignedOut(problemOf(error))) throw redirect({ to: '/sign-in', search: returnTo ? { next: returnTo } : {} });
    throw error;
  }
}

/** A path of this app to go to after signing in; anything else (another site, `//host`) is dropped. */
export function safeNext(next: unknown): string | undefined {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : undefined;
}

/** After signing in or out, nothing of the previous person's data may stay in the cache. */
export function forgetEverything(): void {
  queryClient.clear();
}
