/**
 * Slow clients cannot hold a connection open: headers and the whole request must arrive within
 * their timeouts (short here, set through the environment), or the server answers lfk's 408 and
 * closes the connection.
 */
import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, useTestServer } from '@lfk/server/testing';

const HEADERS_TIMEOUT_S = 1;
const REQUEST_TIMEOUT_S = 2;
/** A trickling client would go on for a minute; the server must end it long before. */
const TRICKLE_FOR_S = 60;
const ENDED_WITHIN_MS = 30_000;

/** Writes one byte a second until the server closes the connection (or a minute has passed). */
async function trickle(socket: Socket, byte: string): Promise<void> {
  for (let i = 0; i < TRICKLE_FOR_S && !socket.destroyed; i++) {
    socket.write(byte);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function expectLfk408(res: Awaited<ReturnType<typeof rawExchange>>): void {
  expect(res.status).toBe(408);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers.connection).toBe('close');
  expect(res.json).toEqual({
    error: { code: 'request_timeout', message: expect.any(String), request_id: res.headers['x-request-id'] },
  });
  expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
}

describe('slow clients', () => {
  const t = useTestServer({ LFK_HEADERS_TIMEOUT: String(HEADERS_TIMEOUT_S), LFK_REQUEST_TIMEOUT: String(REQUEST_TIMEOUT_S) });
  let port: number;
  beforeAll(async () => {
    port = Number(new URL(await t.server.listen()).port);
  });

  /** Sends `send` on a connection of its own: lfk's 408 ends it once `timeoutS` has passed, long before the client would stop. */
  async function expectTimedOut(send: (socket: Socket) => void | Promise<void>, timeoutS: number): Promise<void> {
    const res = await rawExchange(port, send, ENDED_WITHIN_MS);
    expectLfk408(res);
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(timeoutS * 1000);
    expect(res.closedAfterMs).toBeLessThan(ENDED_WITHIN_MS);
  }

  it("a body sent one byte a second is answered 408 in lfk's shape once the request timeout has passed", async () => {
    await expectTimedOut(async (socket) => {
      socket.write('POST /v1/auth/login HTTP/1.1\r\nHost: lfk.test\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n');
      await trickle(socket, ' ');
    }, REQUEST_TIMEOUT_S);
  });

  it("headers sent one byte a second are answered 408 in lfk's shape once the headers timeout has passed", async () => {
    await expectTimedOut(async (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: lfk.test\r\nX-Slow: ');
      await trickle(socket, 'a');
    }, HEADERS_TIMEOUT_S);
  });

  it("a connection that never sends a byte is answered 408 in lfk's shape once the headers timeout has passed", async () => {
    await expectTimedOut(() => {}, HEADERS_TIMEOUT_S);
  });

  it('a request that arrives in time is served as usual on the same settings', async () => {
    const res = await rawExchange(port, (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: lfk.test\r\nConnection: close\r\n\r\n');
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
  });
});
