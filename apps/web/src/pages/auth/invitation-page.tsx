import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { isSignedOut, problemOf } from '../../api/problems.ts';
import { hasSessionHint } from '../../api/session.ts';
import { trpc } from '../../api/trpc.ts';
import { ProblemAlert } from '../../components/problem-alert.tsx';
import { SignOutButton } from '../../layout/sign-out-button.tsx';
import { AuthLayout } from './auth-layout.tsx';

const ROLE = { owner: 'an owner', member: 'a member' } as const;

/**
 * An invitation's link: where it leads, then joining, signed in with the address it was sent to.
 * Signed out, it sends the person to sign in or sign up (with that address) and back here.
 */
export function InvitationPage() {
  const { token } = useParams({ from: '/invitations/$token' });
  const here = `/invitations/${token}`;
  const invitation = useQuery({ ...trpc.invitations.show.queryOptions({ token }), retry: false });
  // Signed out (no hint of a session), nothing is asked: the page offers to sign in or up.
  const hinted = hasSessionHint();
  const session = useQuery({ ...trpc.auth.session.queryOptions(), retry: false, enabled: hinted });
  if (invitation.isPending || (hinted && session.isPending)) {
    return (
      <AuthLayout title="Invitation" footer={null}>
        <p>Loading…</p>
      </AuthLayout>
    );
  }
  if (invitation.isError) {
    return (
      <AuthLayout title="This invitation does not work" footer={<Link to="/">Go to lfk</Link>}>
        <ProblemAlert problem={problemOf(invitation.error)} />
        <p>Ask the person who invited you to send it again.</p>
      </AuthLayout>
    );
  }
  const { workspace, email, role, invited_by } = invitation.data;
  const title = `Join “${workspace.name}”`;
  const intro = (
    <p>
      {invited_by ? `${invited_by.name ?? invited_by.email} invited` : 'You are invited:'} {email} to the workspace “{workspace.name}” as {ROLE[role]}.
    </p>
  );
  const signedOut = !hinted || (session.isError && isSignedOut(problemOf(session.error)));
  if (signedOut || !session.data) {
    return (
      <AuthLayout title={title} footer={null}>
        {intro}
        <p>Sign in, or create an account, with {email} to join.</p>
        <div className="actions">
          <Link className="button" to="/sign-in" search={{ next: here }}>
            Sign in
          </Link>
          <Link className="button secondary" to="/sign-up" search={{ next: here, email }}>
            Create an account
          </Link>
        </div>
      </AuthLayout>
    );
  }
  if (session.data.user.email !== email) {
    return (
      <AuthLayout title={title} footer={<SignOutButton />}>
        {intro}
        <p role="alert">
          You are signed in as {session.data.user.email}. This invitation is for {email}: sign out, then sign in or sign up with that address.
        </p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={title} footer={<Link to="/">Not now</Link>}>
      {intro}
      <AcceptButton token={token} />
    </AuthLayout>
  );
}

function AcceptButton({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const accept = useMutation({
    ...trpc.invitations.accept.mutationOptions(),
    onSuccess: async ({ workspace }) => {
      await queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
      await queryClient.invalidateQueries(trpc.auth.session.pathFilter());
      await navigate({ to: '/w/$workspaceId/forms', params: { workspaceId: workspace.id } });
    },
  });
  return (
    <>
      <ProblemAlert problem={accept.error ? problemOf(accept.error) : null} />
      <div className="actions">
        <button type="button" disabled={accept.isPending} onClick={() => accept.mutate({ token })}>
          Join workspace
        </button>
      </div>
    </>
  );
}
