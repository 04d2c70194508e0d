import { redactSecrets } from '@lfk/api';

/** A device sign-in's user code as people read it (`BCDF-GHJK`), in any case. */
const USER_CODE = /(?<![A-Za-z])[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}(?![A-Za-z])/gi;
/** The code as a path segment, however it was typed (`/device-logins/bcdfghjk`), but the device's own `token` route. */
const USER_CODE_SEGMENT = /(\/device-logins\/)(?!token(?:[/?#]|$))[^/?#]+/i;

/**
 * A request's URL as the log keeps it: secrets redacted, and a device sign-in's user code hidden,
 * since whoever reads it in a log could approve (or deny) that sign-in while it waits.
 */
export function loggedUrl(url: string): string {
  return redactSecrets(url).replace(USER_CODE_SEGMENT, '$1[user code]').replace(USER_CODE, '[user code]');
}
