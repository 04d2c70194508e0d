import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { apiKeysRouter } from './router/api-keys.ts';
import { auditEventsRouter } from './router/audit-events.ts';
import { authRouter } from './router/auth.ts';
import { emailVerificationsRouter } from './router/email-verifications.ts';
import { formsRouter } from './router/forms.ts';
import { membersRouter } from './router/members.ts';
import { projectsRouter } from './router/projects.ts';
import { submissionsRouter } from './router/submissions.ts';
import { workspacesRouter } from './router/workspaces.ts';
import { createCallerFactory, router } from './trpc.ts';

export const appRouter = router({
  auth: authRouter,
  workspaces: workspacesRouter,
  members: membersRouter,
  projects: projectsRouter,
  auditEvents: auditEventsRouter,
  apiKeys: apiKeysRouter,
  forms: formsRouter,
  submissions: submissionsRouter,
  emailVerifications: emailVerificationsRouter,
});

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);
