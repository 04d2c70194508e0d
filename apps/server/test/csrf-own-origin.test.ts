/**
 * The CSRF check on cookie-authenticated state changes compares `Origin` with the server's own
 * origin. The `Host` header is the client's to write, so it never decides what that origin is
 * when `LFK_PUBLIC_URL` says it; without one (local development) it counts only when it names
 * this machine's loopback interface.
 */
import { describe, expect, it } from 'vitest';
import { type Res, type TestServer, useTestServer } from '@lfk/server/testing';

/** A cookie-authenticated state change on both transports: create a key (REST) and a workspace (tRPC). */
async function stateChanges(t: TestServer, headers: Record<string, string>): Promise<{ rest: Res; trpc: Res }> {
  const owner = await t.signup();
  const cookie = `lfk_session=${owner.token}`;
  const rest = await t.request('POST', `/v1/workspaces/${owner.workspaceId}/api-keys`, { headers: { cookie, ...headers }, body: {} });
  const trpc = await t.request('POST', '/trpc/workspaces.create', { headers: { cookie, ...headers }, body: { name: 'By cookie' } });
  return { rest, trpc };
}

function expectCsrfRefused({ rest, trpc }: { rest: Res; trpc: Res }) {
  expect(rest.status).toBe(403);
  expect(rest.json.error.code).toBe('csrf_failed');
  expect(rest.headers['x-request-id']).toBe(rest.json.error.request_id);
  expect(trpc.status).toBe(403);
  expect(trpc.json.error.data.code).toBe('csrf_failed');
}

function expectAccepted({ rest, trpc }: { rest: Res; trpc: Res }) {
  expect(rest.status, rest.body).toBe(201);
  expect(rest.json.key).toMatch(/^lfk_/);
  expect(trpc.status, trpc.body).toBe(200);
  expect(trpc.json.result.data.name).toBe('By cookie');
}

describe('with LFK_PUBLIC_URL set, its origin is the only own origin', () => {
  const t = useTestServer({ LFK_PUBLIC_URL: 'https://forms.lfk.example' });

  it('a request that names a foreign Host and comes from that host is refused', async () => {
    expectCsrfRefused(await stateChanges(t, { host: 'evil.example', origin: 'http://evil.example' }));
    expectCsrfRefused(await stateChanges(t, { host: 'localhost:3000', origin: 'http://localhost:3000' }));
    expect(await t.count('api_keys')).toBe(0);
  });

  it('a request from the public origin passes, whatever Host it carries', async () => {
    expectAccepted(await stateChanges(t, { host: 'forms.lfk.example', origin: 'https://forms.lfk.example' }));
    expectAccepted(await stateChanges(t, { host: '10.0.0.7:3000', origin: 'https://forms.lfk.example' }));
  });

  it('the public URL with another scheme or port is not the public origin', async () => {
    expectCsrfRefused(await stateChanges(t, { host: 'forms.lfk.example', origin: 'http://forms.lfk.example' }));
    expectCsrfRefused(await stateChanges(t, { host: 'forms.lfk.example:8443', origin: 'https://forms.lfk.example:8443' }));
  });
});

describe('without LFK_PUBLIC_URL (local development), own origins are the derived URL and loopback names', () => {
  const t = useTestServer({ LFK_PUBLIC_URL: '', HOST: '127.0.0.1', PORT: '4123' });

  it('a foreign Host with its own Origin is refused: only a loopback Host is believed', async () => {
    expectCsrfRefused(await stateChanges(t, { host: 'evil.example', origin: 'http://evil.example' }));
    // DNS rebinding: a foreign name pointed at 127.0.0.1 still arrives with its own name in Host.
    expectCsrfRefused(await stateChanges(t, { host: 'evil.example:4123', origin: 'http://evil.example:4123' }));
    // Another local site (a dev server on another port) is another origin.
    expectCsrfRefused(await stateChanges(t, { host: 'localhost:4123', origin: 'http://localhost:5173' }));
  });

  it('the derived URL, and the loopback name a browser used, pass', async () => {
    expectAccepted(await stateChanges(t, { host: '127.0.0.1:4123', origin: 'http://127.0.0.1:4123' }));
    expectAccepted(await stateChanges(t, { host: 'localhost:4123', origin: 'http://localhost:4123' }));
    expectAccepted(await stateChanges(t, { host: '[::1]:4123', origin: 'http://[::1]:4123' }));
    // The derived URL names this machine localhost (a passkey's RP ID cannot be an IP address): its
    // origin passes whatever Host it carries.
    expectAccepted(await stateChanges(t, { host: 'evil.example', origin: 'http://localhost:4123' }));
  });
});
