import { expect } from 'vitest';
import type { Res } from './http.ts';

/** lfk's error body, as REST sends it and as tRPC's envelope carries it in `data`. */
export interface WireError {
  code: string;
  message: string;
  details?: { path: string; message: string }[];
  request_id: string;
}

export interface ExpectErrorOptions {
  /** The detail paths the error must name, in order. */
  paths?: string[];
  /** What was sent, for the failure message. */
  what?: string;
}

/** lfk's error shape (REST: the body; tRPC: the envelope's `data`), its status and code, with the request id. */
export function expectError(res: Res, status: number, code: string, options: ExpectErrorOptions = {}): WireError {
  const label = `${options.what ? `${options.what} → ` : ''}${res.status} ${res.body.slice(0, 500)}`;
  expect(res.status, label).toBe(status);
  const error = (res.json?.error?.data ?? res.json?.error) as WireError;
  expect(error?.code, label).toBe(code);
  expect(typeof error.message, label).toBe('string');
  expect(typeof error.request_id, label).toBe('string');
  expect(error.request_id, label).toBe(res.headers['x-request-id']);
  if (options.paths)
    expect(
      error.details?.map((d) => d.path),
      label,
    ).toEqual(options.paths);
  return error;
}

/**
 * `expectError` for a REST answer, and nothing more on the wire: a JSON body of exactly
 * `{ error: { code, message, details?, request_id } }`, never a stack trace or an internal detail.
 */
export function expectDocumentedError(res: Res, status: number, code: string, what = ''): WireError {
  const label = `${what} → ${res.status} ${res.body.slice(0, 500)}`;
  const error = expectError(res, status, code, { what });
  expect(String(res.headers['content-type']), label).toMatch(/^application\/json/);
  expect((res.headers['x-request-id'] as string).length, label).toBeGreaterThan(0);
  expect(res.json, label).toBeTypeOf('object');
  expect(Object.keys(res.json), label).toEqual(['error']);
  expect(error.message.length, label).toBeGreaterThan(0);
  for (const k of Object.keys(error)) expect(['code', 'message', 'details', 'request_id'], label).toContain(k);
  expect(error.message, label).not.toMatch(/\bat .*\(.*:\d+:\d+\)|node_modules|Error:/);
  if (error.details !== undefined) {
    expect(Array.isArray(error.details), label).toBe(true);
    for (const d of error.details) {
      expect(Object.keys(d).sort(), label).toEqual(['message', 'path']);
      expect(typeof d.path, label).toBe('string');
      expect(typeof d.message, label).toBe('string');
    }
  }
  return error;
}

/** What `call` threw, for assertions on it (its class, its code, its message); fails the test if it did not throw. */
export async function thrown(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the call did not fail');
}
