/**
 * A refused call as the wire would carry it: the error a procedure threw, mapped by `toWireError`,
 * the one mapping REST and tRPC answer with. What only HTTP adds (the request id in a header, the
 * content type) is the server suite's to check.
 */
import { expect } from 'vitest';
import { toWireError, type WireError } from '../../src/errors.ts';

/** The status and body `call`'s refusal is answered with; fails if the call was not refused. */
export async function wireErrorOf(call: Promise<unknown>): Promise<WireError> {
  try {
    await call;
  } catch (error) {
    return toWireError(error, 'req_caller');
  }
  throw new Error('the call was not refused');
}

/** What a refused call answers: its status and lfk's code. */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; code: string }> {
  const wire = await wireErrorOf(call);
  return { status: wire.status, code: wire.body.error.code };
}

/** What a call came to, for calls raced at once: `'done'`, or its refusal's status and code (`'429 api_key_limit_reached'`). */
export function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'done',
    (error) => {
      const wire = toWireError(error, 'req_caller');
      return `${wire.status} ${wire.body.error.code}`;
    },
  );
}

export interface ExpectRefusedOptions {
  /** The detail paths the error must name, in order. */
  paths?: string[];
  /** What was sent, for the failure message. */
  what?: string;
}

/** `expectError` (`@lfk/testing`) for a call made through `createCaller`: its status, code, message and detail paths. */
export async function expectRefused(
  call: Promise<unknown>,
  status: number,
  code: string,
  options: ExpectRefusedOptions = {},
): Promise<WireError['body']['error']> {
  const wire = await wireErrorOf(call);
  const label = `${options.what ? `${options.what} → ` : ''}${wire.status} ${JSON.stringify(wire.body).slice(0, 500)}`;
  expect(wire.status, label).toBe(status);
  expect(wire.body.error.code, label).toBe(code);
  expect(typeof wire.body.error.message, label).toBe('string');
  if (options.paths)
    expect(
      wire.body.error.details?.map((d) => d.path),
      label,
    ).toEqual(options.paths);
  return wire.body.error;
}
