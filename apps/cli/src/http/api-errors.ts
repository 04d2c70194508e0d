import { type ErrorCode, lfkErrorOf } from '@lfk/client';
import { CliError, EXIT_AUTH, EXIT_FAILURE, EXIT_RATE_LIMITED } from '../errors.ts';
import { proxyInUse } from './transport.ts';
import { UnexpectedResponseError } from './unexpected-response.ts';

/** Hints for the API errors a person at a terminal can do something about. */
const HINTS: Partial<Record<ErrorCode, string>> = {
  unauthenticated: "Sign in with 'lfk login', or give an API key with --api-key or LFK_API_KEY.",
  invalid_session: "The saved session has expired or was signed out. Run 'lfk login'.",
  invalid_api_key: 'Check --api-key or LFK_API_KEY: the key may have been revoked or have expired, or it may not be allowed from this address.',
  session_required: "This needs a signed-in person ('lfk login'); API keys cannot do it.",
  owner_required: 'Ask an owner of the workspace, or choose another with --workspace.',
  email_not_confirmed: "Open the link emailed to you at sign-up, or get a new one with 'lfk account verify-email', then try again.",
  api_key_required: 'This form takes submissions with an API key only: pass --api-key or set LFK_API_KEY.',
  api_key_limit_reached:
    "List the keys with 'lfk keys list' and revoke one with 'lfk keys revoke <key_id>'. A roll with --grace needs a free slot; a roll without one does not.",
  file_type_not_accepted: "A file's type is judged by its bytes, not its name: see the types its field accepts with 'lfk forms get <form_id>'.",
  file_too_large: "See the most its field takes (max size) with 'lfk forms get <form_id>', and send a smaller file.",
  submission_too_large: 'The files together are more than this server takes in one submission (LFK_MAX_SUBMISSION_SIZE): send fewer or smaller ones.',
  invalid_submission: "Give each file field its files with --file <field>=<path>, and only file fields ('lfk forms get <form_id>' lists them).",
  file_quarantined: "The malware scanner found malware in it ('lfk submissions get' shows what): it cannot be downloaded.",
  storage_unavailable: 'Try again in a moment. A submission refused so stored nothing; with the same --idempotency-key it is made at most once.',
  scanner_unavailable: 'Try again in a moment: the submission stored nothing; with the same --idempotency-key it is made at most once.',
  reauthentication_required: "Run it again at a terminal, where you are asked to confirm it's you, or sign in again with 'lfk login'.",
  two_factor_required: "Set up an authenticator app with 'lfk account two-factor enable' (or a passkey in the dashboard), then try again.",
  api_key_already_rolled: "Its replacement is the key it was rolled to ('lfk keys get <key_id>' shows it): roll that one instead.",
};

/** Codes that mean "who you are" was missing or refused: exit 4, whatever the status. */
const AUTH_CODES = new Set<ErrorCode>([
  'unauthenticated',
  'invalid_session',
  'invalid_api_key',
  'invalid_credentials',
  'api_key_required',
  'session_required',
  'csrf_failed',
  'second_factor_required',
  'invalid_second_factor',
  'invalid_challenge',
  'reauthentication_required',
]);

const exitCodeFor = (code: ErrorCode) => (code === 'rate_limited' ? EXIT_RATE_LIMITED : AUTH_CODES.has(code) ? EXIT_AUTH : EXIT_FAILURE);

/** Walks an error's causes (and an AggregateError's errors) to find one that matches. */
function findCause<T>(error: unknown, match: (candidate: unknown) => T | undefined, depth = 0): T | undefined {
  if (error === null || error === undefined || depth > 8) return undefined;
  const found = match(error);
  if (found !== undefined) return found;
  if (typeof error !== 'object') return undefined;
  for (const inner of (error as { errors?: unknown[] }).errors ?? []) {
    const nested = findCause(inner, match, depth + 1);
    if (nested !== undefined) return nested;
  }
  return findCause((error as { cause?: unknown }).cause, match, depth + 1);
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
  EPIPE: 'the connection was closed',
};

/** Any failure of an API call, as the one line (and details) the CLI prints. */
export function toCliError(error: unknown, baseUrl: string, timeoutMs: number): CliError {
  if (error instanceof CliError) return error;
  const problem = lfkErrorOf(error);
  if (problem) {
    const serverSide = (problem.status ?? 0) >= 500;
    const hint = HINTS[problem.code] ?? (serverSide && problem.requestId ? `Request id: ${problem.requestId}` : undefined);
    const retryAfterSeconds = problem.code === 'rate_limited' ? problem.retryAfterSeconds : null;
    return new CliError(problem.code, problem.message, {
      exitCode: exitCodeFor(problem.code),
      details: problem.details,
      ...(hint ? { hint } : {}),
      ...(problem.requestId ? { requestId: problem.requestId } : {}),
      ...(retryAfterSeconds !== null ? { retryAfterSeconds } : {}),
    });
  }
  const timedOut = findCause(error, (e) => (e instanceof Error && e.name === 'TimeoutError' ? true : undefined));
  if (timedOut) {
    return new CliError('timeout', `No answer from ${baseUrl} within ${timeoutMs / 1000} s.`, {
      hint: 'Try again, or allow longer with --timeout <seconds> (or LFK_TIMEOUT).',
    });
  }
  const unexpected = findCause(error, (e) => (e instanceof UnexpectedResponseError ? e : undefined));
  if (unexpected) {
    return new CliError('bad_response', `${baseUrl} answered ${unexpected.message}, which is not the lfk API.`, {
      hint: 'Check --base-url or LFK_BASE_URL.',
    });
  }
  const code = findCause(error, (e) => {
    const value = (e as { code?: unknown }).code;
    return typeof value === 'string' && value in NETWORK_REASONS ? value : undefined;
  });
  if (code) {
    // Through a proxy the failure may be the proxy's: the message cannot tell, so the hint names both.
    return new CliError('network_error', `Cannot reach ${baseUrl}: ${NETWORK_REASONS[code]}.`, {
      hint: proxyInUse()
        ? 'Is the server running, and the proxy? Check --base-url or LFK_BASE_URL, and HTTPS_PROXY, HTTP_PROXY and NO_PROXY.'
        : 'Is the server running? Check --base-url or LFK_BASE_URL.',
    });
  }
  const tls = findCause(error, (e) => {
    const value = (e as { code?: unknown }).code;
    return typeof value === 'string' && /CERT|SSL|TLS/.test(value) ? (e as Error).message : undefined;
  });
  if (tls) return new CliError('network_error', `Cannot reach ${baseUrl}: TLS: ${tls}`);
  // Otherwise the innermost cause says the most ("fetch failed" wraps e.g. "bad port").
  let innermost = error;
  for (let depth = 0; depth < 8 && (innermost as { cause?: unknown })?.cause; depth++) innermost = (innermost as { cause: unknown }).cause;
  const message = innermost instanceof Error ? innermost.message : String(innermost);
  return new CliError('network_error', `Cannot reach ${baseUrl}: ${message}.`);
}
