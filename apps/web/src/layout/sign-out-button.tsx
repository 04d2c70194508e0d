import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { forgetEverything } from '../api/session.ts';
import { trpc } from '../api/trpc.ts';

/** Ends the session on the server (the cookie goes with it), forgets every cached answer, and leaves. */
export function SignOutButton() {
  const navigate = useNavigate();
  const signOut = useMutation({
    ...trpc.auth.logout.mutationOptions(),
    // Signed out already (expired, or in another tab) is signed out all the same.
    onSettled: async () => {
      forgetEverything();
      await navigate({ to: '/sign-in' });
    },
  });
  return (
    <button type="button" className="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </button>
  );
}
