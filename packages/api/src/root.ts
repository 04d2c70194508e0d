import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { apiKeysRouter } from './features/keys/router.ts';
import { secretScanningRouter } from './features/keys/leak-reports.ts';
import { auditEventsRouter } from './features/accounts/audit-events-router.ts';
import { authRouter } from './features/accounts/auth-router.ts';
import { deviceLoginsRouter } from './features/accounts/device-logins-router.ts';
import { emailVerificationsRouter } from './features/email-verification/router.ts';
import { formsRouter } from './features/forms/router.ts';
import { invitationsRouter } from './features/accounts/invitations-router.ts';
import { membersRouter } from './features/accounts/members-router.ts';
import { passwordResetsRouter } from './features/accounts/password-resets-router.ts';
import { projectsRouter } from './features/accounts/projects-router.ts';
import { submissionsRouter } from './features/submissions/router.ts';
import { workspacesRouter } from './features/accounts/workspaces-router.ts';
import { webhooksRouter } from './features/webhooks/router.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  auth: authRouter,
  passwordResets: passwordResetsRouter,
  deviceLogins: deviceLoginsRouter,
  workspaces: workspacesRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  projects: projectsRouter,
  auditEvents: auditEventsRouter,
  apiKeys: apiKeysRouter,
  secretScanning: secretScanningRouter,
  forms: formsRouter,
  submissions: submissionsRouter,
  webhooks: webhooksRouter,
  emailVerifications: emailVerificationsRouter,
});

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);
