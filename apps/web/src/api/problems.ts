import { type ErrorCode, type LfkErrorDetail, type LfkProblem, lfkErrorOf } from '@lfk/client';
import { PasskeyNotUsed } from './passkeys.ts';

/** One field the API refused, as its `details` name it (`schema.0.type`). */
export type FieldProblem = LfkErrorDetail;

/** What a page says of an action that needed the person to confirm who they are, and they did not. */
export const REAUTHENTICATION_DECLINED = "Not done: this needs you to confirm it's you first. Try again to be asked again.";

/**
 * What went wrong with a call: lfk's answer, `network_error` (no status) when lfk was not reached,
 * or `passkey_not_used` when the browser gave no passkey (cancelled, timed out, refused).
 */
export type Problem = Omit<LfkProblem, 'code'> & { code: ErrorCode | 'network_error' | 'passkey_not_used' };

/** Reads lfk's error out of whatever a call threw; what lfk did not answer is a network failure. */
export function problemOf(error: unknown): Problem {
  const problem = lfkErrorOf(error);
  // The dashboard asks for the password itself (api/reauthentication.ts): one that reaches a page was not given.
  if (problem?.code === 'reauthentication_required') return { ...problem, message: REAUTHENTICATION_DECLINED };
  if (problem) return problem;
  if (error instanceof PasskeyNotUsed) {
    return { code: 'passkey_not_used', message: error.message, details: [], status: null, retryAfterSeconds: null, requestId: null };
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
