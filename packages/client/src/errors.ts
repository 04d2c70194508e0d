import { TRPCClientError } from '@trpc/client';
import type { AppRouter, ErrorCode } from './router.ts';

/** lfk's error body, as the client receives it: the REST error object plus the HTTP status. */
export type LfkErrorData = NonNullable<TRPCClientError<AppRouter>['data']>;

/** An error lfk answered with (as opposed to a network failure), with its code. */
export type LfkError<Code extends ErrorCode = ErrorCode> = TRPCClientError<AppRouter> & {
  readonly data: LfkErrorData & { code: Code };
};

/**
 * Whether `error` is an answer of lfk's, optionally with one given code:
 * `if (isLfkError(error, 'invalid_api_key')) …`. A network failure or a response that is not lfk's
 * is not one (it has no code). `@trpc/client` is a peer dependency, so the `TRPCClientError`
 * checked here is the very class the caller imports.
 */
export function isLfkError<Code extends ErrorCode = ErrorCode>(error: unknown, code?: Code): error is LfkError<Code> {
  if (!(error instanceof TRPCClientError)) return false;
  const data: unknown = error.data;
  if (typeof data !== 'object' || data === null) return false;
  const actual = (data as { code?: unknown }).code;
  return typeof actual === 'string' && (code === undefined || actual === code);
}
