import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@lfk/server';
import { restRoutes } from '@lfk/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseForProcess, ENGINE, freePort, PASSWORD, spawnServerProcess, TEST_DATABASE_URL, until, useTestServer } from '@lfk/server/testing';

const t = useTestServer();

describe('health, docs and the wire format', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.request('GET', '/healthz')).json).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ status: 'ready', database: ENGINE });
  });

  it('serves an OpenAPI document covering every /v1 route', async () => {
    const res = await t.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    const { paths, components } = res.json;
    const create = paths['/v1/workspaces/{workspace_id}/api-keys'].post;
    expect(create.operationId).toBe('apiKeys.create');
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreatedApiKey' });
    expect(components.schemas.CreatedApiKey.properties.key).toBeDefined();
    expect(create.responses['429']).toBeDefined();
    expect(paths['/v1/forms'].post.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['name', 'schema']));
    // Only what sign-up can answer: no 404, no 403 other than sign-up being off.
    const signup = paths['/v1/auth/signup'].post;
    expect(Object.keys(signup.responses)).not.toContain('404');
    expect(signup.responses['403']).toEqual({ $ref: '#/components/responses/SignupDisabled' });
    const signupDisabled = components.responses.SignupDisabled.content['application/json'].schema;
    expect(signupDisabled.allOf[1].properties.error.properties.code.enum).toEqual(['signup_disabled']);
    const submissions = paths['/v1/forms/{form_id}/submissions'];
    expect(Object.keys(submissions.post.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    expect(submissions.post.responses['303'].headers.Location).toBeDefined();
    expect(submissions.post.responses['200'].content['text/html']).toBeDefined();
    expect(submissions.get.operationId).toBe('submissions.list');
    expect(paths['/v1/email-verifications/{token}'].get.responses['200'].content['text/html']).toBeDefined();
    // Every route of the table is documented; and /healthz, /readyz, the document itself, the CORS
    // preflights of submissions and of the three paths pages keep drafts at, and the browser kit's three
    // routes, which the server answers itself (not /metrics, an operator's route).
    const operations = Object.values(paths).flatMap((ops) => Object.keys(ops as object));
    expect(operations).toHaveLength(restRoutes.length + 4 + 3 + 3);
    expect(restRoutes).toHaveLength(102);
    expect(Object.keys(paths)).toHaveLength(78 + 5 + 3);
  });

  it('echoes a sane x-request-id and replaces anything else', async () => {
    const mine = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers['x-request-id']).toBe('trace-123');
    const hostile = await t.request('GET', '/nope', { headers: { 'x-request-id': 'a b\u0001<script>' } });
    expect(hostile.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
    expect(hostile.status).toBe(404);
    expect(hostile.json).toEqual({
      error: { code: 'not_found', message: 'No route GET /nope.', request_id: hostile.headers['x-request-id'] },
    });
  });

  it('sends no CORS headers on key-authenticated routes', async () => {
    const { key } = await t.signupWithKey();
    const res = await t.request('POST', '/v1/forms', {
      token: key,
      headers: { origin: 'https://example.com' },
      body: { name: 'x', schema: [{ name: 'a', type: 'text' }] },
    });
    expect(res.status).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('configuration', () => {
  it('refuses bad values with a message naming each', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' })).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*LOG_LEVEL/);
    expect(loadConfig({})).toMatchObject({ port: 3000, host: '127.0.0.1', dataDir: './.lfk/data', allowSignup: true });
    expect(loadConfig({ LFK_ALLOW_SIGNUP: 'false', PORT: '' })).toMatchObject({ allowSignup: false, port: 3000 });
  });

  it('names this machine localhost in the public URL it derives (a passkey cannot belong to an IP address); a set one is kept', () => {
    for (const HOST of [undefined, '127.0.0.1', '::1', '0.0.0.0', '::', 'localhost']) {
      expect(loadConfig({ HOST, PORT: '3100' }), String(HOST)).toMatchObject({ publicUrl: 'http://localhost:3100', publicUrlIsSet: false });
    }
    expect(loadConfig({ HOST: '192.168.1.20' }).publicUrl).toBe('http://192.168.1.20:3000');
    expect(loadConfig({ LFK_PUBLIC_URL: 'http://127.0.0.1:3000/' })).toMatchObject({ publicUrl: 'http://127.0.0.1:3000', publicUrlIsSet: true });
  });

  it('takes LFK_CLAMD_URL as tcp://, unix:// or a socket path, and refuses any other form', () => {
    expect(loadConfig({}).clamdUrl).toBeUndefined();
    for (const url of ['tcp://127.0.0.1:3310', 'unix:///run/clamav/clamd.ctl', '/run/clamav/clamd.ctl']) {
      expect(loadConfig({ LFK_CLAMD_URL: url }).clamdUrl).toBe(url);
    }
    for (const url of ['clamav:3310', 'http://clamav:3310', 'run/clamd.ctl']) {
      expect(() => loadConfig({ LFK_CLAMD_URL: url }), url).toThrow(/LFK_CLAMD_URL: Must be tcp:\/\/host:port/);
    }
  });
});

// The real entry point, as `npm start` runs it: start, serve, stop on SIGTERM, keep data across restarts.
describe.runIf(ENGINE === 'pglite' || TEST_DATABASE_URL)('the server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lfk-proc-'));
  // On PostgreSQL a database of the test's own, so restarts find only what this test wrote.
  let database: { url: string; drop: () => Promise<void> } | null = null;
  beforeAll(async () => {
    database = await databaseForProcess();
  });
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  const start = (port: number) =>
    spawnServerProcess({
      PORT: String(port),
      LFK_DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
    });

  function stopped(child: ChildProcess): Promise<number | null> {
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  it('LFK_LOG_FORMAT=pretty (a terminal, under auto): readable lines, one per request, and printed email whole with its link', async () => {
    // A port the system says is free now, not a random one another process may hold.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await spawnServerProcess({ PORT: String(port), LFK_DATA_DIR: 'memory://', LFK_LOG_FORMAT: 'pretty' });
    try {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const created = await fetch(`${base}/v1/forms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Readable', schema: [{ name: 'email', type: 'email' }], notify_email: 'reader@example.com' }),
      });
      expect(created.status).toBe(201);
      // The request's line is written once its answer has gone, which may be after the client has
      // read it and after the email is printed: wait for both, rather than read at the first.
      const posted = (line: string) => /INFO: POST \/v1\/forms 201 \(\d+ ms\)$/.test(line);
      await until('the email and the request line to be printed', () => {
        const output = server.output();
        return output.includes('/v1/email-verifications/lfv_') && output.split('\n').some(posted);
      });
      const lines = server.output().split('\n');
      expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
      expect(lines.some((line) => /INFO: GET \/healthz 200 \(\d+ ms\)$/.test(line))).toBe(true);
      // The email's text as a person reads it: its own lines, the link alone on one.
      expect(lines).toContain('To confirm that this address may receive them, open this link and press "Verify":');
      // At the public URL it derives, which names this machine localhost.
      expect(lines.some((line) => /^http:\/\/localhost:\d+\/v1\/email-verifications\/lfv_[0-9A-Za-z]{43}$/.test(line))).toBe(true);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('stops cleanly on SIGTERM, finishing what is in flight, and keeps its data', async () => {
    // A port the system says is free now, not a random one another process may hold.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const first = await start(port);
    const email = `proc-${Date.now()}@example.com`;
    const signup = await fetch(`${base}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signup.status).toBe(201);
    // A sign-up hashes a password (tens of ms): SIGTERM lands while it is in flight.
    const inFlight = fetch(`${base}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    // SIGTERM once the server has taken the request in (it logs each one as it arrives): a request
    // that arrives after SIGTERM is refused with 503, which is another matter.
    while (!first.output().includes('"url":"/v1/auth/login"')) await new Promise((r) => setTimeout(r, 1));
    const exit = stopped(first.child);
    first.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    expect(await exit).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = await start(port);
    const login = await fetch(`${base}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const exit2 = stopped(second.child);
    second.child.kill('SIGTERM');
    expect(await exit2).toBe(0);
  });
});
