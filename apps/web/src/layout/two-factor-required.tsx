import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { problemOf } from '../api/problems.ts';
import { trpc } from '../api/trpc.ts';
import { LeaveWorkspace } from './leave-workspace.tsx';
import { usePageTitle } from './page-title.ts';
import type { Workspace } from './workspace-context.tsx';

/**
 * Whether the signed-in person may see the workspace's pages, as far as its two-factor rule goes:
 * `closed` when it requires a second factor their account lacks (the server answers every one of
 * its routes `403 two_factor_required`, leaving aside); `checking` while their factors are read.
 *
 * The one place a workspace's pages learn of that rule (the layout asks it): a refusal anywhere,
 * from a query or an action, means the workspace's rule or the account's factors changed since
 * they were read, so both are read again, and the pages give way to the explanation if need be.
 */
export function useTwoFactorGate(workspace: Workspace | null): 'open' | 'checking' | 'closed' {
  const queryClient = useQueryClient();
  const requires = workspace?.require_two_factor === true;
  const status = useQuery({ ...trpc.twoFactor.status.queryOptions(), enabled: requires });
  useEffect(() => {
    const refused = (error: unknown) => {
      if (problemOf(error).code !== 'two_factor_required') return;
      void queryClient.invalidateQueries(trpc.workspaces.list.pathFilter());
      void queryClient.invalidateQueries(trpc.twoFactor.status.pathFilter());
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') refused(event.action.error);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') refused(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [queryClient]);
  if (!requires) return 'open';
  if (status.data) return status.data.enabled ? 'open' : 'closed';
  // Unread (a network failure): the pages say what went wrong themselves.
  return status.isError ? 'open' : 'checking';
}

/** In place of the pages of a workspace that requires a second factor the person lacks: why, how to set one up, or leaving. */
export function TwoFactorRequired({ workspace }: { workspace: Workspace }) {
  usePageTitle('Two-factor authentication required', workspace.name);
  return (
    <>
      <h1>This workspace requires two-factor authentication</h1>
      <div className="card">
        <p className="lead">
          The owners of “{workspace.name}” require every member to sign in with a second factor: a code from an authenticator app, or a passkey. Your account
          has none yet, so its forms, submissions, keys and members stay closed to you until you set one up.
        </p>
        <div className="actions">
          <Link className="button" to="/w/$workspaceId/account" params={{ workspaceId: workspace.id }}>
            Set up two-factor authentication
          </Link>
        </div>
        <p className="hint">On your account page, under Security. It takes a minute; then this workspace opens again.</p>
      </div>
      <LeaveWorkspace workspaceId={workspace.id} name={workspace.name} />
    </>
  );
}

/** Above the account page, while the workspace it was reached from stays closed for want of a second factor. */
export function TwoFactorRequiredNotice({ workspace }: { workspace: Workspace }) {
  return (
    <div className="notice page-notice">
      <p>
        “{workspace.name}” requires two-factor authentication of its members. Set up an authenticator app or a passkey under Security below, and its pages open
        again.
      </p>
    </div>
  );
}
