/**
 * lfk's vocabulary: the states, limits and words every layer shares. The entities store them, the
 * API's schemas check them, the errors name them, and the dashboard and the CLI show them. Plain
 * data with no dependencies (its tsconfig has no Node or DOM types), so a browser bundle, the CLI's
 * bundle and the server all import the same definitions.
 */
export * from './accounts.ts';
export * from './auto-replies.ts';
export * from './files.ts';
export * from './forms.ts';
export * from './inbox.ts';
export * from './keys.ts';
export * from './limits.ts';
export * from './passkeys.ts';
export * from './time.ts';
export * from './webhooks.ts';
