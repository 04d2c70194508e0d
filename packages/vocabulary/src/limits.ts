/** How many items one page of a list holds (`limit`): at most `max`, `default` when not asked. */
export const PAGE_LIMIT = { default: 50, max: 100 } as const;

/**
 * The most stored bytes (submission values, a form's fields, a delivery's payload) one page of a
 * list reads: past it the page ends early, with a `next_cursor` (the first row always fits). An
 * answer is built whole in memory, and a reader that stops reading holds it for as long as its
 * connection lasts: 100 submissions of 64 KiB, or 100 forms near the 1 MiB body limit, would be
 * 6 to 100 MiB each.
 */
export const PAGE_MAX_BYTES = 1024 * 1024;

/**
 * The most calls one tRPC batch may hold (`/trpc`); more are refused with 400 batch_too_large. Each
 * call is a procedure run, often a transaction, so an unbounded batch lets one request (even an
 * anonymous one) order any amount of work.
 */
export const MAX_BATCH_CALLS = 10;

/**
 * The lengths, in characters, of the text columns that hold what people and callers send. The
 * entities declare their columns with these and the API's schemas take their limits from here, so
 * a value the API accepts always fits where it is stored.
 */
export const TEXT_LIMITS = {
  email: 254,
  userName: 100,
  workspaceName: 100,
  projectName: 100,
  apiKeyName: 64,
  apiKeyDescription: 500,
  formName: 200,
  url: 2048,
  idempotencyKey: 255,
  idempotencyScope: 80,
  emailSubject: 300,
  deviceName: 100,
  passkeyName: 64,
  webhookDescription: 200,
  /** What a closed form tells the person who tries to send it. */
  closedMessage: 1000,
  /** A captcha site key as the provider issues it (public), and its secret (sealed at rest). */
  captchaSiteKey: 200,
  captchaSecret: 200,
  /**
   * What is kept of a request's address and `User-Agent` (a key's last use, a session, a device
   * sign-in): both are cut to these where the request is read, never refused.
   */
  ipAddress: 64,
  userAgent: 512,
} as const;

/**
 * At most `max` whole characters of `text` (code points, as the database counts a column's length):
 * what is kept of a value that must fit a column but is not refused when longer (a header stored as
 * sent, a name derived from another). Never half of a surrogate pair.
 */
export function cutToLength(text: string, max: number): string {
  // A string of at most `max` UTF-16 units has at most `max` characters: most values need no split.
  return text.length <= max ? text : Array.from(text).slice(0, max).join('');
}
