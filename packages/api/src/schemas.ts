/**
 * Every zod schema of the API, for clients that validate before they send (the dashboard's forms).
 * Browser-safe: these modules import only zod and `@lfk/db/constants`.
 */
export * from './schemas/api-keys.ts';
export * from './schemas/auth.ts';
export * from './schemas/common.ts';
export * from './schemas/email-verifications.ts';
export * from './schemas/forms.ts';
export * from './schemas/submissions.ts';
export * from './schemas/workspaces.ts';
