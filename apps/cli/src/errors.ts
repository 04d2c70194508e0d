/**
 * Exit codes, so that a script can tell failures apart without reading the message. Documented
 * in `lfk --help` (EXIT_CODES_HELP) and docs/reference/cli.md.
 */
export const EXIT_OK = 0;
/** The API said no (not found, conflict, a permission), or the server could not be reached. */
export const EXIT_FAILURE = 1;
/** The command line is wrong, or it needs a prompt and there is no terminal to ask on. */
export const EXIT_USAGE = 2;
/** The person at the terminal answered no: nothing was done, and nothing went wrong. */
export const EXIT_CANCELLED = 3;
/** Not signed in, or the credentials (session, API key, password) were refused. */
export const EXIT_AUTH = 4;
/** Rate limited: try again after the number of seconds given (`retry_after` with --json). */
export const EXIT_RATE_LIMITED = 5;
/** Ctrl-C, as shells report a process ended by SIGINT. */
export const EXIT_INTERRUPTED = 130;

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    the API refused the request (not found, conflict, permission) or the server was not reached
  2    usage: the command line is wrong, or a prompt is needed and there is no terminal
  3    cancelled: you answered no at a prompt; nothing was done
  4    not signed in, or the session, API key or password was refused
  5    rate limited: retry after the seconds given (retry_after with --json)
  130  interrupted with Ctrl-C
With --json, a failure prints the error as JSON on stderr: {"error":{"code","message",...}}.
`;

export interface ErrorDetail {
  path: string;
  message: string;
}

interface CliErrorOptions {
  exitCode?: number;
  details?: ErrorDetail[];
  hint?: string;
  requestId?: string;
  retryAfterSeconds?: number;
}

/** An error the CLI reports as `error: <code>: <message>` (or JSON) and exits with. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly details: ErrorDetail[];
  /** A sentence on what to do next, printed under the error. */
  readonly hint: string | undefined;
  /** The server's id for the request, when it answered. */
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: string, message: string, options: CliErrorOptions = {}) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = options.exitCode ?? EXIT_FAILURE;
    this.details = options.details ?? [];
    this.hint = options.hint;
    this.requestId = options.requestId;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The same error with `hint` in place of its own: a command that knows better what to do next. */
  withHint(hint: string): CliError {
    return new CliError(this.code, this.message, {
      exitCode: this.exitCode,
      details: this.details,
      hint,
      ...(this.requestId ? { requestId: this.requestId } : {}),
      ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
    });
  }

  /** Declining at a prompt or pressing Ctrl-C ends the command, but is not a failure to report. */
  get isCancellation(): boolean {
    return this.exitCode === EXIT_CANCELLED || this.exitCode === EXIT_INTERRUPTED;
  }
}

/** The command line itself is wrong: exit 2. */
export function usageError(code: string, message: string, hint?: string): CliError {
  return new CliError(code, message, { exitCode: EXIT_USAGE, ...(hint ? { hint } : {}) });
}

/** The person answered no: exit 3, `message` saying what was left undone. */
export function declined(message: string): CliError {
  return new CliError('cancelled', message, { exitCode: EXIT_CANCELLED });
}

/** The lines printed for an error, without colour: the error line, its field details, its hint. */
export function formatError(error: CliError): string[] {
  if (error.isCancellation) return [error.message];
  const lines = [`error: ${error.code}: ${error.message}`];
  for (const detail of error.details) lines.push(`  ${detail.path || '(body)'}: ${detail.message}`);
  if (error.hint) lines.push(error.hint);
  return lines;
}

/** The error as --json prints it on stderr: the API's error object, plus what the CLI knows. */
export function errorAsJson(error: CliError): { error: Record<string, unknown> } {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details.length > 0 ? { details: error.details } : {}),
      ...(error.requestId ? { request_id: error.requestId } : {}),
      ...(error.retryAfterSeconds !== undefined ? { retry_after: error.retryAfterSeconds } : {}),
      ...(error.hint ? { hint: error.hint } : {}),
    },
  };
}
