/**
 * Every zod schema of the API, for clients that validate before they send (the dashboard's forms).
 * Browser-safe: these modules import only zod and `@lfk/db/constants`.
 */
export * from './features/keys/schemas.ts';
export * from './features/accounts/auth-schemas.ts';
export * from './features/accounts/device-login-schemas.ts';
export * from './features/accounts/password-reset-schemas.ts';
export * from './common-schemas.ts';
export * from './features/email-verification/schemas.ts';
export * from './features/forms/schemas.ts';
export * from './features/submissions/schemas.ts';
export * from './features/accounts/workspace-schemas.ts';
export * from './features/webhooks/schemas.ts';
