export { type Context, createContext, type Services, type SessionCookieWriter } from './context.ts';
export { generateApiKey, isWellFormedApiKey } from './credentials/api-key-format.ts';
export { type Authentication, type Principal, SESSION_TTL_MS } from './credentials/authenticate.ts';
export { LastUsedRecorder } from './credentials/last-used.ts';
export * from './errors.ts';
export { type Access, type ProcedurePath, type RestRoute, restRoutes } from './rest-routes.ts';
export { type AppRouter, appRouter, createCaller, type RouterInputs, type RouterOutputs } from './root.ts';
