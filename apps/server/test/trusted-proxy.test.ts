/**
 * `LFK_TRUST_PROXY` behind a real proxy hop: a proxy that appends the client's address to
 * `X-Forwarded-For` (as nginx's `$proxy_add_x_forwarded_for` does) in front of the server on a real
 * port, each party on its own loopback address. A client cannot choose its address by writing the
 * header; the per-address limits see each client as itself; a client that reaches the server
 * directly is its own address; and the forms that cannot be made safe (`true`, a hop count) are
 * refused at start.
 */
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendFrom, startTestServer, type TestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PROXY_ADDRESS = '127.0.0.3';
const CLIENT_A = '127.0.0.2';
const CLIENT_B = '127.0.0.4';
const DIRECT_CLIENT = '127.0.0.5';
/** A route a key is checked on before anything else: 404 (no such form) for a good key, 401 for a bad one, 429 when held back. */
const KEYED_PATH = '/v1/forms/form_none';

/** A request from `from` (a loopback address of its own) to the server or the proxy on 127.0.0.1:`port`. */
const send = (from: string, port: number, method: string, path: string, headers: Record<string, string> = {}) =>
  sendFrom(from, { host: '127.0.0.1', port }, method, path, headers);

/** A reverse proxy that appends the peer's address to X-Forwarded-For, connecting upstream from PROXY_ADDRESS. */
async function appendingProxy(upstreamPort: number): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const forwarded = req.headers['x-forwarded-for'];
    const headers = { ...req.headers, 'x-forwarded-for': forwarded ? `${forwarded}, ${req.socket.remoteAddress}` : req.socket.remoteAddress! };
    const upstream = httpRequest(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, localAddress: PROXY_ADDRESS },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('behind a proxy that appends to X-Forwarded-For (LFK_TRUST_PROXY=<its address>)', () => {
  let t: TestServer;
  let apiPort: number;
  let proxy: { port: number; close: () => Promise<void> };

  beforeAll(async () => {
    t = await startTestServer({ PORT: '0', HOST: '127.0.0.1', LFK_TRUST_PROXY: PROXY_ADDRESS, LFK_RATE_LIMIT_KEY_FAILURES: '5/1h' });
    apiPort = Number(new URL(await t.server.listen()).port);
    proxy = await appendingProxy(apiPort);
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it("records the client's own address, not one it wrote into X-Forwarded-For", async () => {
    const { owner, key, id } = await t.signupWithKey();
    const used = await send(CLIENT_A, proxy.port, 'GET', KEYED_PATH, { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.9' });
    expect(used.json.error.code).toBe('form_not_found');
    await t.server.services.keyUses.flush();
    const shown = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/api-keys/${id}`, { token: owner.token });
    expect(shown.json.last_used_ip).toBe(CLIENT_A);
  });

  it('limits bad keys per client however it rotates X-Forwarded-For, and not the client next to it', async () => {
    const { key } = await t.signupWithKey();
    const bad = `lfk_${'A'.repeat(40)}`;
    const refusals: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await send(CLIENT_A, proxy.port, 'GET', KEYED_PATH, { authorization: `Bearer ${bad}`, 'x-forwarded-for': `198.51.100.${i}` });
      refusals.push(res.status);
    }
    expect(refusals.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(refusals.slice(5)).toEqual([429, 429]);
    // Client B, behind the same proxy, is not held back by A's failures.
    expect((await send(CLIENT_B, proxy.port, 'GET', KEYED_PATH, { authorization: `Bearer ${key}` })).status).toBe(404);
  });

  it('takes a client that reaches the server directly as itself, whatever it writes into X-Forwarded-For', async () => {
    const { key } = await t.signupWithKey();
    const bad = `lfk_${'B'.repeat(40)}`;
    // Forging B's address, directly: the failures count against the direct client's own address.
    for (let i = 0; i < 6; i++) await send(DIRECT_CLIENT, apiPort, 'GET', KEYED_PATH, { authorization: `Bearer ${bad}`, 'x-forwarded-for': CLIENT_B });
    expect((await send(DIRECT_CLIENT, apiPort, 'GET', KEYED_PATH, { authorization: `Bearer ${key}` })).status).toBe(429);
    expect((await send(CLIENT_B, proxy.port, 'GET', KEYED_PATH, { authorization: `Bearer ${key}` })).status).toBe(404);
  });
});

describe('LFK_TRUST_PROXY forms that cannot be made safe', () => {
  it('refuses true and a hop count at start, saying what to give instead', async () => {
    await expect(startTestServer({ LFK_TRUST_PROXY: 'true' })).rejects.toThrow(
      /LFK_TRUST_PROXY: true would trust any address a client writes into X-Forwarded-For/,
    );
    await expect(startTestServer({ LFK_TRUST_PROXY: '1' })).rejects.toThrow(/LFK_TRUST_PROXY: A hop count cannot tell your proxy from a client/);
    await expect(startTestServer({ LFK_TRUST_PROXY: '10.0.0.0/8, proxy.internal' })).rejects.toThrow(/proxy.internal is not an IP address, a CIDR/);
  });

  it('takes addresses, CIDRs and range names', async () => {
    const t = await startTestServer({ LFK_TRUST_PROXY: '10.0.0.0/8, 192.0.2.7, loopback, ::1, fd00::/8' });
    try {
      expect(t.server.config.trustProxy).toEqual(['10.0.0.0/8', '192.0.2.7', 'loopback', '::1', 'fd00::/8']);
    } finally {
      await t.close();
    }
  });
});
