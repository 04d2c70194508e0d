import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Link, Outlet, redirect } from '@tanstack/react-router';
import { requireSession, safeNext } from './api/session.ts';
import { queryClient, trpc } from './api/trpc.ts';
import { AppShell, WORKSPACES_LISTED } from './layout/app-shell.tsx';
import { SignInPage } from './pages/auth/sign-in-page.tsx';
import { SignUpPage } from './pages/auth/sign-up-page.tsx';
import { ForgotPasswordPage } from './pages/auth/forgot-password-page.tsx';

// Each page's code is its own chunk, loaded when the page is first visited: the first load (the
// sign-in page, say) fetches the app's frame and that page, not every screen. Sign-in and sign-up
// stay in the first chunk: a signed-out visit always lands on one of them.
//
// The server answers the app's page at `/`, `/sign-in`, `/sign-up`, `/forgot-password`, `/welcome`,
// `/device`, `/account`, `/invitations/*` and `/w/*` (apps/server's
// DASHBOARD_PATHS): every route below lives under one of them, so any of them survives a reload.

function NotFound() {
  return (
    <main id="main" className="auth">
      <h1>Page not found</h1>
      <p>
        <Link to="/">Go to your workspaces</Link>
      </p>
    </main>
  );
}

const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFound });

/** `/`: the signed-in person's first workspace, or the sign-in page. */
const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: async () => {
    await requireSession();
    const workspaces = await queryClient.ensureQueryData(trpc.workspaces.list.queryOptions({ limit: WORKSPACES_LISTED }));
    const first = workspaces.data[0];
    if (!first) throw redirect({ to: '/welcome' });
    throw redirect({ to: '/w/$workspaceId/forms', params: { workspaceId: first.id } });
  },
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: (search: Record<string, unknown>): { next?: string } => {
    const next = safeNext(search.next);
    return next ? { next } : {};
  },
  component: SignInPage,
});

/** `/device`: approve a sign-in another device asked for (`lfk login --web`), its code typed by hand; a `?code=` in the link is not used. */
const deviceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/device',
  validateSearch: (search: Record<string, unknown>): { code?: string } =>
    typeof search.code === 'string' && search.code.trim() ? { code: search.code.trim().slice(0, 32) } : {},
  beforeLoad: ({ location }) => requireSession(location.href),
  component: lazyRouteComponent(() => import('./pages/device/device-page.tsx'), 'DevicePage'),
});
/** `/sign-up?next=…&email=…`: from an invitation, its address filled in and back to it after. */
const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-up',
  validateSearch: (search: Record<string, unknown>): { next?: string; email?: string } => {
    const next = safeNext(search.next);
    const email = typeof search.email === 'string' ? search.email.slice(0, 254) : undefined;
    return { ...(next ? { next } : {}), ...(email ? { email } : {}) };
  },
  component: SignUpPage,
});
/**
 * `/account`: where the security emails link (an account is no one workspace's): the person's
 * account page in their first workspace, after signing in.
 */
const accountHomeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account',
  beforeLoad: async ({ location }) => {
    await requireSession(location.href);
    const workspaces = await queryClient.ensureQueryData(trpc.workspaces.list.queryOptions({ limit: WORKSPACES_LISTED }));
    const first = workspaces.data[0];
    if (!first) throw redirect({ to: '/welcome' });
    throw redirect({ to: '/w/$workspaceId/account', params: { workspaceId: first.id } });
  },
});
/** Where deleting one's account ends. */
const accountDeletedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account-deleted',
  component: lazyRouteComponent(() => import('./pages/auth/account-deleted-page.tsx'), 'AccountDeletedPage'),
});
const forgotPasswordRoute = createRoute({ getParentRoute: () => rootRoute, path: '/forgot-password', component: ForgotPasswordPage });
/** The link of an invitation email; it works signed in or out. */
const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invitations/$token',
  component: lazyRouteComponent(() => import('./pages/auth/invitation-page.tsx'), 'InvitationPage'),
});
/** A signed-in person who belongs to no workspace. */
const welcomeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/welcome',
  beforeLoad: ({ location }) => requireSession(location.href),
  component: lazyRouteComponent(() => import('./pages/auth/welcome-page.tsx'), 'WelcomePage'),
});

const workspaceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/w/$workspaceId',
  beforeLoad: ({ location }) => requireSession(location.href),
  component: AppShell,
});

/** A page of a workspace: its code a chunk of its own, loaded when the page is first visited. */
const workspacePage = <const TPath extends string, TModule extends Record<string, unknown>>(
  path: TPath,
  importer: () => Promise<TModule>,
  exportName: keyof TModule,
) => createRoute({ getParentRoute: () => workspaceRoute, path, component: lazyRouteComponent(importer, exportName) });

const keysRoute = workspacePage('keys', () => import('./pages/keys/keys-page.tsx'), 'KeysPage');
const keyRoute = workspacePage('keys/$keyId', () => import('./pages/keys/key-page.tsx'), 'KeyPage');
const formsRoute = workspacePage('forms', () => import('./pages/forms/forms-page.tsx'), 'FormsPage');
const newFormRoute = workspacePage('forms/new', () => import('./pages/forms/new-form-page.tsx'), 'NewFormPage');
const claimFormRoute = workspacePage('forms/claim', () => import('./pages/forms/claim-form-page.tsx'), 'ClaimFormPage');
const formRoute = workspacePage('forms/$formId', () => import('./pages/forms/form-page.tsx'), 'FormPage');
const inboxRoute = workspacePage('forms/$formId/submissions', () => import('./pages/inbox/inbox-page.tsx'), 'InboxPage');
const submissionRoute = workspacePage('forms/$formId/submissions/$submissionId', () => import('./pages/inbox/submission-page.tsx'), 'SubmissionPage');
const draftsRoute = workspacePage('forms/$formId/drafts', () => import('./pages/drafts/drafts-page.tsx'), 'DraftsPage');
const webhooksRoute = workspacePage('forms/$formId/webhooks', () => import('./pages/webhooks/webhooks-page.tsx'), 'WebhooksPage');
const membersRoute = workspacePage('members', () => import('./pages/members/members-page.tsx'), 'MembersPage');
const settingsRoute = workspacePage('settings', () => import('./pages/settings/workspace-settings-page.tsx'), 'WorkspaceSettingsPage');
const auditRoute = workspacePage('audit', () => import('./pages/audit/audit-page.tsx'), 'AuditPage');
const accountRoute = workspacePage('account', () => import('./pages/account/account-page.tsx'), 'AccountPage');

const workspaceHomeRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: '/',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/w/$workspaceId/forms', params });
  },
});

const routeTree = rootRoute.addChildren([
  homeRoute,
  accountHomeRoute,
  signInRoute,
  signUpRoute,
  forgotPasswordRoute,
  accountDeletedRoute,
  invitationRoute,
  welcomeRoute,
  deviceRoute,
  workspaceRoute.addChildren([
    workspaceHomeRoute,
    keysRoute,
    keyRoute,
    formsRoute,
    newFormRoute,
    claimFormRoute,
    formRoute,
    inboxRoute,
    submissionRoute,
    draftsRoute,
    webhooksRoute,
    membersRoute,
    auditRoute,
    settingsRoute,
    accountRoute,
  ]),
]);

export const router = createRouter({ routeTree, defaultPreload: 'intent' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
