import { randomBytes } from 'node:crypto';
import { redactSecrets } from '@lfk/api';

const ID_BYTES = 12;
const POOL_BYTES = ID_BYTES * 1024;
let pool = Buffer.alloc(0);
let offset = 0;

/** `req_` and 24 random hex digits, cut from a pool: one call for random bytes per 1024 requests. */
export function newRequestId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `req_${id}`;
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
