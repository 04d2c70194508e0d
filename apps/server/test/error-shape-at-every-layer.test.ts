/**
 * Every answer is lfk's error shape with a request id, whichever layer gives it: Node's HTTP parser
 * (a header too large, no Host, bytes that are not HTTP), Fastify while it shuts down, and a
 * failure while an answer is being written out.
 */
import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RawResponse, rawExchange, startTestServer, until, useTestServer } from '@lfk/server/testing';

function expectLfkError(res: { status: number; headers: Record<string, unknown>; json: any }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  expect(res.json).toEqual({ error: { code, message: expect.any(String), request_id: res.headers['x-request-id'] } });
  expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
}

describe('answers from below the router (raw connections)', () => {
  const t = useTestServer();
  let port: number;
  beforeAll(async () => {
    port = Number(new URL(await t.server.listen()).port);
  });

  it('a 20 KB header is 431 headers_too_large', async () => {
    const res = await rawExchange(port, (socket) => {
      socket.write(`GET /healthz HTTP/1.1\r\nHost: lfk.test\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    });
    expectLfkError(res, 431, 'headers_too_large');
  });

  it('an HTTP/1.1 request without Host is 400 invalid_request', async () => {
    const res = await rawExchange(port, (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n');
    });
    expectLfkError(res, 400, 'invalid_request');
    expect(res.json.error.message).toContain('Host');
  });

  it('bytes that are not HTTP are 400 invalid_request', async () => {
    const res = await rawExchange(port, (socket) => {
      socket.write('HELLO THERE\r\n\r\n');
    });
    expectLfkError(res, 400, 'invalid_request');
  });

  it('a header with a byte HTTP forbids is 400 invalid_request', async () => {
    const res = await rawExchange(port, (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: lfk.test\r\nX-Bad: a\x01b\r\n\r\n');
    });
    expectLfkError(res, 400, 'invalid_request');
  });

  it('a CONNECT (lfk is no proxy) is 404 not_found, not a connection left hanging', async () => {
    const res = await rawExchange(
      port,
      (socket) => {
        socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      },
      20_000,
    );
    expectLfkError(res, 404, 'not_found');
  });

  it('an expectation other than 100-continue is ignored (RFC 9110 allows it), not an empty 417', async () => {
    const res = await rawExchange(port, (socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: lfk.test\r\nExpect: a-party\r\nConnection: close\r\n\r\n');
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it("the problem is logged under the request id it was answered with, without the request's bytes", async () => {
    const secret = `lfk_${'A'.repeat(36)}`;
    const res = await rawExchange(port, (socket) => {
      socket.write(`GET /healthz HTTP/1.1\r\nHost: lfk.test\r\nAuthorization: Bearer ${secret}\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    });
    const line = t.logs.find((entry) => entry.includes(res.headers['x-request-id']!));
    expect(line).toBeDefined();
    expect(t.logs.join('\n')).not.toContain(secret);
  });
});

describe('a request that arrives while the server shuts down', () => {
  it("is answered 503 unavailable in lfk's shape, and its connection closed", async () => {
    const t = await startTestServer();
    const port = Number(new URL(await t.server.listen()).port);
    const accepted: Socket[] = [];
    t.server.app.server.on('connection', (socket: Socket) => accepted.push(socket));
    const started = 'GET /healthz HTTP/1.1\r\nHost: lfk.test\r\n';
    let closed: Promise<void> | undefined;
    let res: RawResponse;
    try {
      res = await rawExchange(port, async (socket) => {
        // The request is under way (so shutdown waits for it) when the server starts to stop…
        socket.write(started);
        await until('the server to have read the start of the request', () => ((accepted[0]?.bytesRead ?? 0) >= started.length ? true : undefined));
        closed = t.server.close();
        // …and reaches the router only then.
        socket.write('\r\n');
      });
    } finally {
      await (closed ?? t.server.close());
      await t.close();
    }
    expectLfkError(res, 503, 'unavailable');
    expect(res.headers.connection).toBe('close');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
  });
});

describe('a failure while the answer is written out', () => {
  const t = useTestServer();
  beforeAll(async () => {
    // No route of lfk's writes such a header any more (stored redirects are re-checked before they
    // are followed): a route of the test's own stands for whatever might, to hold the mechanism.
    t.server.app.get('/test/unsendable-header', async (_request, reply) => reply.header('x-echo', 'a\r\nSet-Cookie: x=1').send({ ok: true }));
  });

  it("a header value Node refuses to send is lfk's 500 with a request id, not Fastify's, and the bad header is not sent", async () => {
    const res = await t.request('GET', '/test/unsendable-header');
    expectLfkError(res, 500, 'internal_error');
    expect(res.headers['x-echo']).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).not.toContain('Set-Cookie');
  });

  it('a redirect stored with CR/LF before URLs were checked is not followed: the visitor gets the thank-you page', async () => {
    const owner = await t.signup();
    const created = await t.request('POST', '/v1/forms', {
      token: owner.token,
      body: {
        workspace_id: owner.workspaceId,
        name: 'Contact',
        schema: [{ name: 'message', type: 'text' }],
        allowed_origins: ['https://site.example'],
        redirect_url: 'https://site.example/thanks',
      },
    });
    expect(created.status).toBe(201);
    // A row written by an older version, which stored URLs as given.
    await t.sql('update forms set redirect_url = ? where id = ?', ['https://site.example/thanks\r\nSet-Cookie: x=1', created.json.id]);

    const res = await t.request('POST', `/v1/forms/${created.json.id}/submissions`, {
      raw: 'message=hello',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: 'https://site.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
