import type { Operation } from '@trpc/client';
import { UnexpectedResponseError } from './unexpected-response.ts';

export const MAX_ATTEMPTS = 3;

/**
 * Only a request that cannot do a thing twice is sent again: reads, and writes that carry an
 * Idempotency-Key (the server answers a repeat from the first) or are idempotent by nature (revoke).
 */
export function isIdempotent(op: Pick<Operation, 'type' | 'context'>): boolean {
  const context = op.context as { idempotencyKey?: unknown; idempotent?: unknown };
  return op.type === 'query' || typeof context.idempotencyKey === 'string' || context.idempotent === true;
}

/** Worth another try: the request may not have arrived (network, timeout), or a proxy said the server is away. */
export function isTransient(error: { data?: unknown; cause?: unknown }): boolean {
  if (error.data) return false; // lfk answered; asking again gets the same answer
  const cause = error.cause;
  if (cause instanceof UnexpectedResponseError) return [502, 503, 504].includes(cause.status);
  return true;
}

/** 250 ms, 500 ms, … with jitter, so many clients retrying do not arrive together. */
export function retryDelayMs(attempt: number): number {
  const base = 250 * 2 ** Math.max(0, attempt - 1);
  return base / 2 + Math.random() * (base / 2);
}
