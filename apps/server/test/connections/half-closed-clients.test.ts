/**
 * A client may close its side of the connection (send FIN) once its request is sent, and still
 * read the answer (RFC 9112 §9.6: a half-close delimits nothing and says nothing of interest in
 * the answer). Every answer reaches it, including those that wait on the database first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, useTestServer } from '@lfk/server/testing';

// The refused-key limit on, as in production: a refused key's answer then waits for its count in the database.
const t = useTestServer({ LFK_RATE_LIMIT_KEY_FAILURES: '1000/1m' });
let port: number;
beforeAll(async () => {
  port = Number(new URL(await t.server.listen()).port);
});

/** `GET path` with these headers, then the client's side of the connection closed at once. */
const halfClosed = (path: string, headers: Record<string, string>) =>
  rawExchange(
    port,
    (socket) => {
      const lines = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`GET ${path} HTTP/1.1\r\nHost: lfk.test\r\n${lines}\r\n`);
      socket.end();
    },
    10_000,
  );

describe('a client that half-closes after its request', () => {
  it('gets the 401 of a refused key', async () => {
    const res = await halfClosed('/v1/forms/form_x', { authorization: `Bearer lfk_${'A'.repeat(36)}` });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('invalid_api_key');
  });

  it('gets the 401 of a refused key on /trpc too', async () => {
    const res = await halfClosed(`/trpc/forms.get?input=${encodeURIComponent('{"form_id":"form_x"}')}`, { authorization: `Bearer lfk_${'B'.repeat(36)}` });
    expect(res.status).toBe(401);
  });

  it("gets a session's answer read from the database", async () => {
    const owner = await t.signup();
    const res = await halfClosed('/v1/workspaces', { authorization: `Bearer ${owner.token}` });
    expect(res.status).toBe(200);
    expect(res.json.data.map((w: { id: string }) => w.id)).toContain(owner.workspaceId);
  });
});
