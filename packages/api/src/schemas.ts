/**
 * Every zod schema of the API, for clients that validate before they send (the dashboard's forms).
 * Browser-safe: these modules import only zod, ipaddr.js and `@lfk/vocabulary`.
 */
export * from './features/keys/schemas.ts';
export * from './features/secret-scanning/schemas.ts';
export * from './features/auth/schemas.ts';
export * from './features/sessions/schemas.ts';
export * from './features/device-sign-in/schemas.ts';
export * from './features/password-resets/schemas.ts';
export * from './common-schemas.ts';
export * from './features/email-verification/schemas.ts';
export * from './features/forms/schemas.ts';
export * from './features/inbox/schemas.ts';
export * from './features/public-forms/schemas.ts';
export * from './features/workspaces/schemas.ts';
export * from './features/members/schemas.ts';
export * from './features/invitations/schemas.ts';
export * from './features/projects/schemas.ts';
export * from './features/audit/schemas.ts';
export * from './features/webhooks/schemas.ts';
