import { TRPCClientError } from '@trpc/client';

/** One field the API refused, as its `details` name it (`schema.0.type`). */
export interface FieldProblem {
  path: string;
  message: string;
}

/** What went wrong with a call, in the API's terms: its error code, sentence and per-field details. */
export interface Problem {
  code: string;
  message: string;
  details: FieldProblem[];
  /** The HTTP status, or null when the server was never reached. */
  status: number | null;
  /** From `Retry-After`, on a 429. */
  retryAfterSeconds: number | null;
  requestId: string | null;
}

interface LfkErrorData {
  code?: string;
  message?: string;
  details?: FieldProblem[];
  request_id?: string;
  httpStatus?: number;
}

function retryAfterOf(error: TRPCClientError<never>): number | null {
  const response = (error.meta as { response?: Response } | undefined)?.response;
  const value = response?.headers.get('retry-after');
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/** Reads lfk's error out of whatever a call threw. */
export function problemOf(error: unknown): Problem {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as LfkErrorData;
    if (data.code) {
      return {
        code: data.code,
        message: data.message ?? error.message,
        details: data.details ?? [],
        status: data.httpStatus ?? null,
        retryAfterSeconds: retryAfterOf(error),
        requestId: data.request_id ?? null,
      };
    }
  }
  return {
    code: 'network_error',
    message: 'The server could not be reached. Check your connection, then try again.',
    details: [],
    status: null,
    retryAfterSeconds: null,
    requestId: null,
  };
}

/** The session is missing, expired or revoked: the person has to sign in again. */
export function isSignedOut(problem: Problem): boolean {
  return problem.code === 'invalid_session' || problem.code === 'unauthenticated';
}

/** "45 seconds", "2 minutes". */
export function waitPhrase(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
