import { redactSecrets } from '@lfk/api';
import { randomBytesFromPool } from '@lfk/db';

/** `req_` and 24 random hex digits, cut from the random pool lfk's ids use (`randomBytesFromPool`). */
export function newRequestId(): string {
  return `req_${randomBytesFromPool(12).toString('hex')}`;
}

/**
 * Request ids: the caller's own if it is a plain token, else a fresh one. A caller's id is echoed in
 * every answer and log line, so one shaped like an lfk secret is never taken.
 */
export function requestIdFor(incoming: unknown): string {
  if (typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(incoming) && redactSecrets(incoming) === incoming) {
    return incoming;
  }
  return newRequestId();
}
