/** What the visitor is told after an answer that is no success: the same words from the kit and from `@lfk/react`. */
import type { Answer } from './submission.ts';
import type { WireError } from './wire.ts';

export const CHECK_ANSWERS = 'Please check your answers.';
export const SENT = 'Thank you: your answers were sent.';

/** An upload's progress in whole percent. */
export const percentOf = (loaded: number, total: number) => (total > 0 ? Math.floor((loaded / total) * 100) : 0);
const megabytes = (bytes: number) => (bytes / 1048576).toFixed(1);
/** The same as the visitor reads it beside the bar: `42% (4.2 of 10.0 MB)`. */
export const progressWords = (loaded: number, total: number) => `${percentOf(loaded, total)}% (${megabytes(loaded)} of ${megabytes(total)} MB)`;

/** lfk's error in an answer, if it holds one. */
export const errorIn = (answer: Answer): WireError | null => (answer.body as { error?: WireError } | null)?.error ?? null;

/** The field a detail's path names (`email`, `files.cv` → `cv`'s part: its first name). */
export const fieldOf = (path: string) => path.split('.')[0]!;

/**
 * The sentence for a failed answer; null when its details are to be shown beside their fields.
 * `refusedHere`: no answer could be read (status 0) though lfk answered, so a browser hid a refused
 * origin (a page learns it by asking again with `mode: 'no-cors'`).
 */
export function failureSentence(answer: Answer, refusedHere: boolean): string | null {
  const { status, retryAfter } = answer;
  const error = errorIn(answer);
  if (status === -1) return 'Upload cancelled: nothing was sent.';
  if ((status === 0 && refusedHere) || error?.code === 'origin_not_allowed') {
    return 'This form cannot be sent from this page. Please contact the site’s owner another way.';
  }
  if (status === 0) return 'Your answers could not be sent: check your connection, then press the button again.';
  if (status === 429) return `Too many attempts: please try again${retryAfter ? ` in ${retryAfter} seconds` : ' later'}.`;
  if (error && status < 500) return null;
  return 'Something went wrong on our side: your answers were not sent. Please try again in a moment.';
}

/** Whether lfk answers at all at `url`: a page cannot read an answer without a CORS grant, but can tell that one came. */
export const answersAt = (url: string) =>
  fetch(url, { mode: 'no-cors', cache: 'no-store' }).then(
    () => true,
    () => false,
  );
