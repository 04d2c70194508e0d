import { redirect } from '@tanstack/react-router';
import { isSignedOut, problemOf } from './problems.ts';
import { queryClient, trpc } from './trpc.ts';

const SIGNED_IN_COOKIE = 'lfk_signed_in';

/**
 * Whether a session is worth asking about: the server sets a readable `lfk_signed_in` cookie
 * beside the session's (which script cannot read). Without it the answer would be a 401, which
 * the browser logs: a signed-out visit asks nothing.
 */
export function hasSessionHint(): boolean {
  return document.cookie.split(';').some((cookie) => cookie.trim().startsWith(`${SIGNED_IN_COOKIE}=`));
}

/** The session the hint spoke of has ended (expired, or signed out elsewhere): stop asking. */
function forgetSessionHint(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the dashboard serves.
  document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}

/**
 * The signed-in person, or a redirect to the sign-in page: for routes that need a session. With
 * `returnTo` (a path of this app), signing in comes back to it.
 */
export async function requireSession(returnTo?: string) {
  const toSignIn = () => redirect({ to: '/sign-in', search: returnTo ? { next: returnTo } : {} });
  if (!hasSessionHint()) throw toSignIn();
  try {
    return await queryClient.ensureQueryData(trpc.auth.session.queryOptions());
  } catch (error) {
    if (!isSignedOut(problemOf(error))) throw error;
    forgetSessionHint();
    throw toSignIn();
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
