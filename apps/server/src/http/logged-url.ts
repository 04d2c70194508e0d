import { redactSecrets } from '@lfk/api';

/** `/device-logins/…`, `/device?code=…`, `/trpc/deviceLogins.…`. */
const DEVICE = /device/i;
/** A device sign-in's user code as people read it (`BCDF-GHJK`), in any case. */
const USER_CODE = /(?<![A-Za-z])[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}(?![A-Za-z])/gi;
/** The code as a path segment, however it was typed (`/device-logins/bcdfghjk`), but the device's own `token` route. */
const USER_CODE_SEGMENT = /(\/device-logins\/)(?!token(?:[/?#]|$))[^/?#]+/i;

/** A signed file link's token (`/v1/files/{token}`), or `files.open`'s input over tRPC: whoever reads it in a log could download the file. */
const FILE_LINK = /(\/v1\/files\/)[^/?#]+|(\/trpc\/files\.open\?).*/;

/**
 * A request's URL as the log keeps it: secrets redacted, and a device sign-in's user code hidden,
 * since whoever reads it in a log could approve (or deny) that sign-in while it waits.
 */
export function loggedUrl(url: string): string {
  const redacted = redactSecrets(url).replace(FILE_LINK, (_, rest, trpc) => (rest ? `${rest}[link]` : `${trpc}[link]`));
  // Every request's log line comes here: only a device sign-in's URL (its routes, its page, its
  // tRPC procedures) can hold a code, and only those pay for looking.
  if (!DEVICE.test(redacted)) return redacted;
  return redacted.replace(USER_CODE_SEGMENT, '$1[user code]').replace(USER_CODE, '[user code]');
}
