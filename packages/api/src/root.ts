import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { FEATURES } from './features.ts';
import { createCallerFactory, router } from './trpc.ts';

type Routes = { [F in (typeof FEATURES)[number] as F['name']]: F['router'] };

/** Each feature's procedures under its name: `apiKeys.create`, `submissions.list`. */
export const appRouter = router(Object.fromEntries(FEATURES.map((feature) => [feature.name, feature.router])) as Routes);

export type AppRouter = typeof appRouter;
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export const createCaller = createCallerFactory(appRouter);
