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

/**
 * A path of this app to go to after signing in; anything else is dropped: another site, `//host`,
 * `/\\host`, and any backslash, space or control character (a browser drops tabs and line breaks
 * from a URL, so `/<tab>/host` would be `//host` to it).
 */
export function safeNext(next: unknown): string | undefined {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//')) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  return /[\\\s\u0000-\u001f\u007f]/.test(next) ? undefined : next;
}

/** After signing in or out, nothing of the previous person's data may stay in the cache. */
export function forgetEverything(): void {
  queryClient.clear();
}
