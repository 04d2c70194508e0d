/** Exit codes: 0 ok, 1 the API or the network said no (or not signed in), 2 the command line is wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** An error the CLI reports as `error: <code>: <message>` and exits with. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly details: ErrorDetail[];
  /** A sentence on what to do next, printed under the error. */
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: { exitCode?: number; details?: ErrorDetail[]; hint?: string } = {}) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = options.exitCode ?? EXIT_FAILURE;
    this.details = options.details ?? [];
    this.hint = options.hint;
  }
}

/** The command line itself is wrong: exit 2. */
export function usageError(code: string, message: string, hint?: string): CliError {
  return new CliError(code, message, { exitCode: EXIT_USAGE, ...(hint ? { hint } : {}) });
}

/** The lines printed for an error, without colour: the error line, its field details, its hint. */
export function formatError(error: CliError): string[] {
  const lines = [`error: ${error.code}: ${error.message}`];
  for (const detail of error.details) lines.push(`  ${detail.path || '(body)'}: ${detail.message}`);
  if (error.hint) lines.push(error.hint);
  return lines;
}
