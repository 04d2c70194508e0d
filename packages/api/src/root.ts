import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { apiKeysRouter } from './features/keys/router.ts';
import { secretScanningRouter } from './features/secret-scanning/router.ts';
import { auditEventsRouter } from './features/audit/router.ts';
import { authRouter } from './features/auth/router.ts';
import { twoFactorRouter } from './features/two-factor/router.ts';
import { deviceLoginsRouter } from './features/device-sign-in/router.ts';
import { emailVerificationsRouter } from './features/email-verification/router.ts';
import { autoReplyStopsRouter } from './features/auto-replies/router.ts';
import { formsRouter } from './features/forms/router.ts';
import { invitationsRouter } from './features/invitations/router.ts';
import { membersRouter } from './features/members/router.ts';
import { passwordResetsRouter } from './features/password-resets/router.ts';
import { projectsRouter } from './features/projects/router.ts';
import { inboxRouter } from './features/inbox/router.ts';
import { filesRouter } from './features/files/router.ts';
import { workspacesRouter } from './features/workspaces/router.ts';
import { webhooksRouter } from './features/webhooks/router.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  auth: authRouter,
  twoFactor: twoFactorRouter,
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
  submissions: inboxRouter, // the inbox's procedures; the wire names one entry a submission
  files: filesRouter,
  webhooks: webhooksRouter,
  emailVerifications: emailVerificationsRouter,
  autoReplyStops: autoReplyStopsRouter,
});

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);
