export { createLfkClient, type LfkCallContext, type LfkClient, type LfkClientOptions, type LfkCredentials } from './client.ts';
export { isLfkError, type LfkError, type LfkErrorData } from './errors.ts';
export type { AppRouter, ErrorCode, RouterInputs, RouterOutputs } from './router.ts';
