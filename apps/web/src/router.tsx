import { createRootRoute, createRoute, createRouter, Link, Outlet, redirect } from '@tanstack/react-router';
import { requireSession, safeNext } from './api/session.ts';
import { queryClient, trpc } from './api/trpc.ts';
import { AppShell, WORKSPACES_LISTED } from './layout/app-shell.tsx';
import { SignInPage } from './pages/auth/sign-in-page.tsx';
import { SignUpPage } from './pages/auth/sign-up-page.tsx';
import { ForgotPasswordPage } from './pages/auth/forgot-password-page.tsx';
import { InvitationPage } from './pages/auth/invitation-page.tsx';
import { WelcomePage } from './pages/auth/welcome-page.tsx';
import { AuditPage } from './pages/audit/audit-page.tsx';
import { AccountPage } from './pages/account/account-page.tsx';
import { DevicePage } from './pages/device/device-page.tsx';
import { ClaimFormPage } from './pages/forms/claim-form-page.tsx';
import { FormPage } from './pages/forms/form-page.tsx';
import { FormsPage } from './pages/forms/forms-page.tsx';
import { NewFormPage } from './pages/forms/new-form-page.tsx';
import { KeyPage } from './pages/keys/key-page.tsx';
import { KeysPage } from './pages/keys/keys-page.tsx';
import { MembersPage } from './pages/members/members-page.tsx';
import { WorkspaceSettingsPage } from './pages/settings/workspace-settings-page.tsx';
import { SubmissionsPage } from './pages/submissions/submissions-page.tsx';
import { WebhooksPage } from './pages/webhooks/webhooks-page.tsx';

// The server answers the app's page at `/`, `/sign-in`, `/sign-up`, `/forgot-password`, `/welcome`,
// `/device`, `/invitations/*` and `/w/*` (apps/server's
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
  component: DevicePage,
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
const forgotPasswordRoute = createRoute({ getParentRoute: () => rootRoute, path: '/forgot-password', component: ForgotPasswordPage });
/** The link of an invitation email; it works signed in or out. */
const invitationRoute = createRoute({ getParentRoute: () => rootRoute, path: '/invitations/$token', component: InvitationPage });
/** A signed-in person who belongs to no workspace. */
const welcomeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/welcome',
  beforeLoad: ({ location }) => requireSession(location.href),
  component: WelcomePage,
});

const workspaceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/w/$workspaceId',
  beforeLoad: ({ location }) => requireSession(location.href),
  component: AppShell,
});

const keysRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'keys', component: KeysPage });
const keyRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'keys/$keyId', component: KeyPage });
const formsRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'forms', component: FormsPage });
const newFormRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'forms/new', component: NewFormPage });
const claimFormRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'forms/claim', component: ClaimFormPage });
const formRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'forms/$formId', component: FormPage });
const submissionsRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'forms/$formId/submissions', component: SubmissionsPage });
const webhooksRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'forms/$formId/webhooks', component: WebhooksPage });
const membersRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'members', component: MembersPage });
const settingsRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'settings', component: WorkspaceSettingsPage });
const auditRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'audit', component: AuditPage });
const accountRoute = createRoute({ getParentRoute: () => workspaceRoute, path: 'account', component: AccountPage });

const workspaceHomeRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: '/',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/w/$workspaceId/forms', params });
  },
});

const routeTree = rootRoute.addChildren([
  homeRoute,
  signInRoute,
  signUpRoute,
  forgotPasswordRoute,
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
    submissionsRoute,
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
