import { redirect } from '@tanstack/react-router';
import { isSignedOut, problemOf } from './problems.ts';
import { queryClient, trpc } from './trpc.ts';

/** The signed-in person, or a redirect to the sign-in page: for routes that need a session. */
export async function requireSession() {
  try {
    return await queryClient.ensureQueryData(trpc.auth.session.queryOptions());
  } catch (error) {
    if (isSignedOut(problemOf(error))) throw redirect({ to: '/sign-in' });
    throw error;
  }
}

/** After signing in or out, nothing of the previous person's data may stay in the cache. */
export function forgetEverything(): void {
  queryClient.clear();
}
