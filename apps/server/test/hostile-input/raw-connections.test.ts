/**
 * Hostile input: bytes that are not a well-formed HTTP request, over raw connections.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '@lfk/server/testing';
import { t, useWorld } from './fixtures.ts';

useWorld();

describe('bytes that are not a well-formed HTTP request (raw connections)', () => {
  let port: number;
  beforeAll(async () => {
    port = Number(new URL(await t.server.listen()).port);
  });

  const host = 'Host: lfk.test\r\n';
  const cases: [string, number, string, string][] = [
    [
      'Content-Length and Transfer-Encoding together',
      400,
      'invalid_request',
      `POST /v1/forms HTTP/1.1\r\n${host}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
    [
      'a chunk size that is not hex',
      400,
      'invalid_request',
      `POST /v1/forms HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ],
    ['a method with a forbidden character', 400, 'invalid_request', `G@T /healthz HTTP/1.1\r\n${host}\r\n`],
    ['a NUL in the path', 400, 'invalid_request', `GET /v1/\0forms HTTP/1.1\r\n${host}\r\n`],
    ['a folded header line', 400, 'invalid_request', `GET /healthz HTTP/1.1\r\n${host}X-A: a\r\n b\r\n\r\n`],
    ['an HTTP version that does not exist', 400, 'invalid_request', `GET /healthz HTTP/7.1\r\n${host}\r\n`],
    ['the HTTP/2 preface on an HTTP/1.1 port', 400, 'invalid_request', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['a 20 KB path', 431, 'headers_too_large', `GET /v1/${'a'.repeat(20 * 1024)} HTTP/1.1\r\n${host}\r\n`],
  ];

  it.each(cases)("%s → %i %s in lfk's shape", async (_name, status, code, raw) => {
    const res = await rawExchange(port, (socket) => void socket.write(raw));
    expect(res.status).toBe(status);
    expect(res.json).toEqual({ error: { code, message: expect.any(String), request_id: res.headers['x-request-id'] } });
  });
});
