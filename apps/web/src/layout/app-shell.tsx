import { PAGE_LIMIT } from '@lfk/vocabulary';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useMatch, useParams } from '@tanstack/react-router';
import { trpc } from '../api/trpc.ts';
import { ConfirmAddressBanner } from '../components/confirm-address.tsx';
import { Loaded, Loading } from '../components/states.tsx';
import { SignOutButton } from './sign-out-button.tsx';
import { TwoFactorRequired, TwoFactorRequiredNotice, useTwoFactorGate } from './two-factor-required.tsx';
import { WorkspaceContext } from './workspace-context.tsx';
import { WorkspaceSwitcher } from './workspace-switcher.tsx';

/** The most workspaces one person's switcher lists: one page. */
export const WORKSPACES_LISTED = PAGE_LIMIT.max;

const NAV = [
  { to: '/w/$workspaceId/forms', label: 'Forms' },
  { to: '/w/$workspaceId/keys', label: 'API keys' },
  { to: '/w/$workspaceId/members', label: 'Members' },
  { to: '/w/$workspaceId/audit', label: 'Audit log' },
  { to: '/w/$workspaceId/settings', label: 'Settings' },
] as const;

/**
 * Every signed-in page: who, which workspace (by name, switchable), where to go; then the page. A
 * workspace that requires a second factor the person lacks shows why instead of its pages (but for
 * the account page, where one is set up): two-factor-required.tsx.
 */
export function AppShell() {
  const { workspaceId } = useParams({ from: '/w/$workspaceId' });
  const session = useQuery(trpc.auth.session.queryOptions());
  const workspaces = useQuery(trpc.workspaces.list.queryOptions({ limit: WORKSPACES_LISTED }));
  const workspace = workspaces.data?.data.find((w) => w.id === workspaceId) ?? null;
  const gate = useTwoFactorGate(workspace);
  const onAccountPage = useMatch({ from: '/w/$workspaceId/account', shouldThrow: false }) !== undefined;

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          lfk
        </Link>
        {workspaces.data && <WorkspaceSwitcher workspaces={workspaces.data.data} current={workspaceId} />}
        <div className="account">
          {/* The API reference is served by the server itself, outside the app: a plain link. */}
          <a className="docs-link" href="/docs">
            API reference
          </a>
          {session.data && (
            <Link className="account-email" to="/w/$workspaceId/account" params={{ workspaceId }} aria-label={`Your account: ${session.data.user.email}`}>
              <span className="account-label">Account</span>
              <span className="account-address">{session.data.user.email}</span>
            </Link>
          )}
          <SignOutButton />
        </div>
      </header>
      {workspace && gate === 'open' && (
        <nav className="tabs" aria-label="Workspace pages">
          {NAV.map((item) => (
            <Link key={item.to} to={item.to} params={{ workspaceId }} activeProps={{ 'aria-current': 'page', className: 'active' }}>
              {item.label}
            </Link>
          ))}
        </nav>
      )}
      <main id="main" className="page">
        <ConfirmAddressBanner />
        <Loaded query={workspaces} what="your workspaces">
          {() =>
            workspace ? (
              <WorkspaceContext.Provider value={workspace}>
                {gate === 'open' || (gate === 'closed' && onAccountPage) ? (
                  <>
                    {gate === 'closed' && <TwoFactorRequiredNotice workspace={workspace} />}
                    <Outlet />
                  </>
                ) : gate === 'closed' ? (
                  <TwoFactorRequired workspace={workspace} />
                ) : (
                  <Loading what="your two-factor authentication" />
                )}
              </WorkspaceContext.Provider>
            ) : (
              <div className="empty">
                <h1>No such workspace</h1>
                <p>It does not exist, or you are not a member of it. Pick one of yours above, or ask its owner to add you.</p>
              </div>
            )
          }
        </Loaded>
      </main>
    </div>
  );
}
