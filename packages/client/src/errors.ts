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

/** One field the API refused, as its `details` name it (`schema.0.type`). */
export interface LfkErrorDetail {
  path: string;
  message: string;
}

/** lfk's error as a program acts on it, read out of a failed call by `lfkErrorOf`. */
export interface LfkProblem {
  code: ErrorCode;
  message: string;
  details: LfkErrorDetail[];
  /** The HTTP status the server answered with. */
  status: number | null;
  requestId: string | null;
  /** From `Retry-After`, in whole seconds (on a 429 or a 503). */
  retryAfterSeconds: number | null;
}

/** `Retry-After` in whole seconds, from the response a tRPC error carries. */
function retryAfterOf(error: TRPCClientError<AppRouter>): number | null {
  const headers = (error.meta as { response?: { headers?: Headers } } | undefined)?.response?.headers;
  const value = headers?.get?.('retry-after');
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/**
 * lfk's answer to a plain HTTP request the client makes outside tRPC (the export, a file): its
 * problem as `lfkErrorOf` reads it, or, when what answered was not lfk, a status alone.
 */
export class LfkResponseError extends Error {
  readonly problem: LfkProblem | null;
  readonly status: number;

  private constructor(status: number, problem: LfkProblem | null) {
    super(problem?.message ?? `The server answered ${status}.`);
    this.name = 'LfkResponseError';
    this.status = status;
    this.problem = problem;
  }

  static async from(response: Response): Promise<LfkResponseError> {
    const retryAfter = response.headers.get('retry-after');
    let problem: LfkProblem | null = null;
    try {
      const body = (await response.json()) as { error?: { code?: unknown; message?: unknown; details?: unknown; request_id?: unknown } };
      const error = body.error;
      if (error && typeof error.code === 'string') {
        problem = {
          code: error.code as ErrorCode,
          message: typeof error.message === 'string' ? error.message : '',
          details: Array.isArray(error.details) ? (error.details as LfkErrorDetail[]) : [],
          status: response.status,
          requestId: typeof error.request_id === 'string' ? error.request_id : null,
          retryAfterSeconds: retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null,
        };
      }
    } catch {
      // Not lfk's JSON: the status alone.
    }
    return new LfkResponseError(response.status, problem);
  }
}

/**
 * lfk's answer to a failed call (its code, message, field details, status, request id and
 * `Retry-After`), or null when lfk did not answer: a network failure, a timeout, a server that is
 * not lfk.
 */
export function lfkErrorOf(error: unknown): LfkProblem | null {
  if (error instanceof LfkResponseError) return error.problem;
  if (!isLfkError(error)) return null;
  const { data } = error;
  return {
    code: data.code,
    message: data.message ?? error.message,
    details: Array.isArray(data.details) ? data.details : [],
    status: typeof data.httpStatus === 'number' ? data.httpStatus : null,
    requestId: data.request_id ?? null,
    retryAfterSeconds: retryAfterOf(error),
  };
}

/** How to finish a sign-in that needs its second factor: what `second_factor_required` carries. */
export interface LfkSecondFactorChallenge {
  /** `lfm_…`: send it to `auth.secondFactor` with the factor, within 5 minutes. */
  challenge: string;
  expiresAt: string;
  /** What the account can complete the sign-in with: `totp` (a code from the app), `passkey`, `recovery_code`. */
  factors: string[];
  /** For an account with passkeys: the WebAuthn request options (`PublicKeyCredentialRequestOptionsJSON`) to sign with; null without. */
  passkeyOptions: Record<string, unknown> | null;
}

/**
 * The challenge a sign-in answered instead of a session, or null for any other outcome:
 *
 * ```ts
 * try { signedIn = await client.auth.login.mutate({ email, password }); }
 * catch (error) {
 *   const pending = secondFactorChallengeOf(error);
 *   if (!pending) throw error;
 *   signedIn = await client.auth.secondFactor.mutate({ challenge: pending.challenge, code: await askForCode() });
 * }
 * ```
 */
export function secondFactorChallengeOf(error: unknown): LfkSecondFactorChallenge | null {
  if (!isLfkError(error, 'second_factor_required')) return null;
  const { challenge, expires_at, factors, passkey_options } = error.data;
  if (typeof challenge !== 'string' || typeof expires_at !== 'string' || !Array.isArray(factors)) return null;
  const passkeyOptions = typeof passkey_options === 'object' && passkey_options !== null ? (passkey_options as Record<string, unknown>) : null;
  return { challenge, expiresAt: expires_at, factors: [...factors], passkeyOptions };
}
