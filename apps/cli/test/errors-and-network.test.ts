import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { freePort } from '@lfk/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { type Home, type LfkResult, type LfkServerUnderTest, signupWithCli, startServer, tempHome } from './harness.ts';

// Usage errors, and the HTTP layer under a server that is down, silent, not lfk, or failing:
// the real server where lfk itself is needed, small fake servers on 127.0.0.1 for misbehaviour.

const STACK_LINE = /^\s+at /m;

/** A failure as the CLI must report it: the exit code, `error: <code>: ` first, no stack, nothing on stdout. */
function expectFailure(result: LfkResult, exitCode: number, code: string): void {
  expect(result.code, result.stderr).toBe(exitCode);
  expect(result.stderr.startsWith(`error: ${code}: `), result.stderr).toBe(true);
  expect(result.stderr).not.toMatch(STACK_LINE);
  expect(result.stdout).toBe('');
}

const firstLine = (text: string) => text.split('\n')[0];

interface Recorded {
  method: string;
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface FakeServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function listen(server: Server | NetServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port'));
      resolve(address.port);
    });
  });
}

const closeHttp = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** An HTTP server on 127.0.0.1 that records each request (with its body) before `answer` responds. */
async function fakeHttp(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = req.url ?? '';
      requests.push({ method: req.method ?? '', url, path: new URL(url, 'http://fake').pathname, headers: req.headers, body });
      answer(req, res);
    });
  });
  const port = await listen(server);
  const fake = { url: `http://127.0.0.1:${port}`, requests, close: () => closeHttp(server) };
  cleanups.push(fake.close);
  return fake;
}

const answer503 = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(503, { 'content-type': 'text/plain' });
  res.end('Service Unavailable');
};

/**
 * Forwards every request to `target` and records the request line it received: an absolute URL when
 * used as an HTTP proxy (HTTP_PROXY), a path when used as a reverse proxy (--base-url).
 */
async function forwardingProxy(target: string): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push({ method: req.method ?? '', url, path: new URL(url, target).pathname, headers: req.headers, body: '' });
    const destination = new URL(url, target);
    const upstream = httpRequest(destination, { method: req.method, headers: { ...req.headers, host: destination.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    });
    req.pipe(upstream);
  });
  const port = await listen(server);
  const proxy = { url: `http://127.0.0.1:${port}`, requests, close: () => closeHttp(server) };
  cleanups.push(proxy.close);
  return proxy;
}

let server: LfkServerUnderTest;
/** Signed up on the real server; holds a session and its workspace in its config. */
let owner: Home;
/** A fresh home with nothing in it. */
let anon: Home;
let apiKey: string;
let formId: string;

beforeAll(async () => {
  server = await startServer();
  owner = await tempHome({ LFK_BASE_URL: '' });
  anon = await tempHome({ LFK_BASE_URL: '' });
  await signupWithCli(owner, server.baseUrl);
  const key = await owner.lfk(['keys', 'create', '--name', 'network-tests', '--json']);
  if (key.code !== 0) throw new Error(`keys create failed: ${key.stderr}`);
  apiKey = key.json.key;
  const form = await owner.lfk(['forms', 'create', '--name', 'Contact', '--field', 'email:email', '--json'], {
    env: { LFK_API_KEY: apiKey },
  });
  if (form.code !== 0) throw new Error(`forms create failed: ${form.stderr}`);
  formId = form.json.id;
});

afterAll(async () => {
  await server?.close();
  await owner?.remove();
  await anon?.remove();
});

describe('usage errors', () => {
  it('with no arguments prints the help on stderr and exits 2', async () => {
    const result = await anon.lfk([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: lfk');
    expect(result.stderr).toContain('Commands:');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('rejects an unknown command', async () => {
    const result = await anon.lfk(['nope']);
    expectFailure(result, 2, 'unknown_command');
    expect(firstLine(result.stderr)).toContain("'nope'");
  });

  it('suggests the command a typo was meant to be', async () => {
    const result = await anon.lfk(['kyes']);
    expectFailure(result, 2, 'unknown_command');
    expect(result.stderr).toMatch(/Did you mean keys\?/);
  });

  it('rejects an unknown option', async () => {
    const result = await anon.lfk(['keys', 'list', '--bogus']);
    expectFailure(result, 2, 'unknown_option');
    expect(firstLine(result.stderr)).toContain('--bogus');
  });

  it('rejects a missing argument', async () => {
    const result = await anon.lfk(['forms', 'get']);
    expectFailure(result, 2, 'missing_argument');
    expect(firstLine(result.stderr)).toContain('form_id');
  });

  it('rejects a --mode outside its choices', async () => {
    const result = await anon.lfk(['forms', 'create', '--name', 'x', '--field', 'a:text', '--mode', 'sideways']);
    expectFailure(result, 2, 'invalid_argument');
    expect(firstLine(result.stderr)).toContain('sideways');
    expect(firstLine(result.stderr)).toContain('browser');
    expect(firstLine(result.stderr)).toContain('api_key');
  });

  it('rejects --limit 0 and --limit abc without asking the server', async () => {
    for (const limit of ['0', 'abc']) {
      const result = await owner.lfk(['keys', 'list', '--limit', limit]);
      expectFailure(result, 2, 'invalid_limit');
    }
  });

  it('rejects a base URL that is not http(s)', async () => {
    const result = await anon.lfk(['--base-url', 'ftp://x', 'forms', 'get', 'form_x'], { env: { LFK_API_KEY: 'lfk_anything' } });
    expectFailure(result, 2, 'invalid_base_url');
  });

  it('rejects a negative or zero --timeout', async () => {
    for (const timeout of ['-1', '0']) {
      const result = await anon.lfk(['--timeout', timeout, 'forms', 'get', 'form_x'], { env: { LFK_API_KEY: 'lfk_anything' } });
      expectFailure(result, 2, 'invalid_timeout');
    }
  });

  it("prints a group's help on stderr and exits 2 when the group is named without a command", async () => {
    const result = await anon.lfk(['keys']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: lfk keys');
    for (const command of ['create', 'list', 'revoke']) expect(result.stderr).toContain(command);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('prints the package version with --version', async () => {
    const result = await anon.lfk(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(packageJson.version);
    expect(result.stderr).toBe('');
  });

  it("prints a group's help with examples on stdout for --help", async () => {
    const result = await anon.lfk(['forms', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: lfk forms');
    expect(result.stdout).toContain('Examples:');
    expect(result.stderr).toBe('');
  });
});

describe('a server that is down', () => {
  it('reports connection refused for a query and for a mutation', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: base };
    const query = await anon.lfk(['forms', 'get', 'form_x'], { env });
    expectFailure(query, 1, 'network_error');
    expect(firstLine(query.stderr)).toBe(`error: network_error: Cannot reach ${base}: connection refused.`);

    const mutation = await anon.lfk(['forms', 'update', 'form_x', '--name', 'y'], { env });
    expectFailure(mutation, 1, 'network_error');
    expect(firstLine(mutation.stderr)).toBe(`error: network_error: Cannot reach ${base}: connection refused.`);
  });
});

describe('a server that never answers', () => {
  /** A server that accepts connections and reads requests but never answers; records each connection's life. */
  async function silentServer() {
    const sockets = new Set<Socket>();
    const lives: { opened: number; closed?: number }[] = [];
    const silent = createNetServer((socket) => {
      const life: { opened: number; closed?: number } = { opened: performance.now() };
      lives.push(life);
      sockets.add(socket);
      socket.on('close', () => {
        life.closed = performance.now();
        sockets.delete(socket);
      });
      socket.on('error', () => {});
      socket.resume(); // read the request, never answer it
    });
    const port = await listen(silent);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    return { port, lives };
  }

  it('--timeout bounds the whole command: one attempt that waits the full time, no retry past it', async () => {
    const { port, lives } = await silentServer();
    const started = performance.now();
    const result = await anon.lfk(['--timeout', '2', 'forms', 'get', 'form_x'], {
      env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: `http://127.0.0.1:${port}` },
      timeoutMs: 60_000,
    });
    const elapsed = performance.now() - started;
    expectFailure(result, 1, 'timeout');
    expect(firstLine(result.stderr)).toBe(`error: timeout: No answer from http://127.0.0.1:${port} within 2 s.`);
    expect(result.stderr).toContain('--timeout');
    // A query is retried on a timeout, but not past the command's deadline: the one attempt used it all.
    expect(lives).toHaveLength(1);
    expect(lives[0]!.closed! - lives[0]!.opened).toBeGreaterThan(1_500);
    // Three attempts of 2 s each (the old behaviour) could not fit: the count above says so exactly;
    // this only guards against something far worse, such as the 30 s default being used.
    expect(elapsed).toBeLessThan(25_000);
  });
});

describe('a server that is not lfk', () => {
  it('reports an HTML page as bad_response, and does not ask again', async () => {
    const html = await fakeHttp((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Welcome to nginx</title>');
    });
    const result = await anon.lfk(['forms', 'get', 'form_x'], { env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: html.url } });
    expectFailure(result, 1, 'bad_response');
    expect(firstLine(result.stderr)).toContain(html.url);
    expect(firstLine(result.stderr)).toContain('200');
    expect(html.requests).toHaveLength(1);
  });
});

describe('retries', () => {
  const withKey = (url: string) => ({ env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: url } });

  it('sends a query three times to a server answering 503, with the key and the user agent', async () => {
    const fake = await fakeHttp(answer503);
    const result = await anon.lfk(['forms', 'get', 'form_x'], withKey(fake.url));
    expectFailure(result, 1, 'bad_response');
    expect(firstLine(result.stderr)).toContain('503');
    expect(fake.requests).toHaveLength(3);
    for (const request of fake.requests) {
      expect(request.method).toBe('GET');
      expect(request.path).toBe('/trpc/forms.get');
      expect(JSON.parse(new URL(request.url, fake.url).searchParams.get('input') ?? 'null')).toEqual({ form_id: 'form_x' });
      expect(request.headers.authorization).toBe('Bearer lfk_anything');
      expect(request.headers['user-agent']).toMatch(new RegExp(`^lfk-cli/${packageJson.version.replaceAll('.', '\\.')}( |$)`));
      expect(request.headers['idempotency-key']).toBeUndefined();
    }
  });

  it('sends a mutation without an idempotency key once', async () => {
    const fake = await fakeHttp(answer503);
    const result = await anon.lfk(['forms', 'update', 'form_x', '--name', 'y'], withKey(fake.url));
    expectFailure(result, 1, 'bad_response');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.method).toBe('POST');
    expect(fake.requests[0]?.path).toBe('/trpc/forms.update');
    expect(fake.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it.each([
    { what: 'forms create', args: ['forms', 'create', '--name', 'y', '--field', 'a:text'], path: '/trpc/forms.create' },
    { what: 'submissions create', args: ['submissions', 'create', 'form_x', '--data', 'a=b'], path: '/trpc/submissions.create' },
  ])('sends $what three times with the same Idempotency-Key and body', async ({ args, path }) => {
    const fake = await fakeHttp(answer503);
    const result = await anon.lfk(args, withKey(fake.url));
    expectFailure(result, 1, 'bad_response');
    expect(fake.requests).toHaveLength(3);
    const keys = fake.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[0]).not.toBe('');
    expect(new Set(keys).size).toBe(1);
    for (const request of fake.requests) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe(path);
      expect(request.body).toBe(fake.requests[0]?.body);
      expect(request.headers.authorization).toBe('Bearer lfk_anything');
    }
  });

  it('sends keys revoke three times, with the saved session', async () => {
    const fake = await fakeHttp(answer503);
    const home = await tempHome({ LFK_BASE_URL: '' });
    cleanups.push(() => home.remove());
    await mkdir(dirname(home.configPath), { recursive: true, mode: 0o700 });
    await writeFile(home.configPath, JSON.stringify({ servers: { [fake.url]: { session_token: 'lfs_x', workspace_id: 'ws_x' } } }), {
      mode: 0o600,
    });
    const result = await home.lfk(['keys', 'revoke', 'key_x', '--yes', '--base-url', fake.url]);
    expectFailure(result, 1, 'bad_response');
    expect(fake.requests).toHaveLength(3);
    for (const request of fake.requests) {
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/trpc/apiKeys.revoke');
      expect(request.headers.authorization).toBe('Bearer lfs_x');
      expect(JSON.parse(request.body)).toEqual({ workspace_id: 'ws_x', key_id: 'key_x' });
    }
  });

  it('does not ask again when lfk answers with its JSON error', async () => {
    const fake = await fakeHttp((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'x', code: -32004, data: { code: 'form_not_found', message: 'No such form.', httpStatus: 404 } },
        }),
      );
    });
    const result = await anon.lfk(['forms', 'get', 'form_x'], withKey(fake.url));
    expectFailure(result, 1, 'form_not_found');
    expect(firstLine(result.stderr)).toBe('error: form_not_found: No such form.');
    expect(fake.requests).toHaveLength(1);
  });

  it("does not ask the real server again for a form that does not exist", async () => {
    const proxy = await forwardingProxy(server.baseUrl);
    const result = await anon.lfk(['forms', 'get', 'form_doesnotexist'], { env: { LFK_API_KEY: apiKey, LFK_BASE_URL: proxy.url } });
    expectFailure(result, 1, 'form_not_found');
    expect(proxy.requests).toHaveLength(1);
    expect(proxy.requests[0]?.path).toBe('/trpc/forms.get');
  });
});

describe('HTTP proxies', () => {
  it('goes through HTTP_PROXY, and not when NO_PROXY names the host', async () => {
    const proxy = await forwardingProxy(server.baseUrl);
    const env = { LFK_API_KEY: apiKey, LFK_BASE_URL: server.baseUrl, HTTP_PROXY: proxy.url };

    const proxied = await anon.lfk(['forms', 'get', formId, '--json'], { env });
    expect(proxied.code, proxied.stderr).toBe(0);
    expect(proxied.json.id).toBe(formId);
    expect(proxy.requests).toHaveLength(1);
    expect(proxy.requests[0]?.url.startsWith(`${server.baseUrl}/trpc/forms.get?`)).toBe(true);

    const direct = await anon.lfk(['forms', 'get', formId, '--json'], { env: { ...env, NO_PROXY: '127.0.0.1' } });
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.json.id).toBe(formId);
    expect(proxy.requests).toHaveLength(1);
  });
});

describe('errors from the real server and the config', () => {
  it('prints one line per validation detail', async () => {
    const result = await anon.lfk(['forms', 'create', '--name', 'Bad', '--field', '1bad:text'], {
      env: { LFK_API_KEY: apiKey, LFK_BASE_URL: server.baseUrl },
    });
    expectFailure(result, 1, 'invalid_request');
    const details = result.stderr.split('\n').filter((line) => /^ {2}\S+: /.test(line));
    expect(details.length).toBeGreaterThanOrEqual(1);
    expect(details.some((line) => line.startsWith('  schema.0.name: '))).toBe(true);
  });

  it('says to log in when there is no session', async () => {
    const result = await anon.lfk(['keys', 'list'], { env: { LFK_BASE_URL: server.baseUrl } });
    expectFailure(result, 4, 'not_signed_in');
    expect(firstLine(result.stderr)).toContain(server.baseUrl);
    expect(result.stderr.split('\n').slice(1).join('\n')).toContain('lfk login');
  });

  it('names a config file that is not JSON', async () => {
    const home = await tempHome({ LFK_BASE_URL: '' });
    cleanups.push(() => home.remove());
    await mkdir(dirname(home.configPath), { recursive: true, mode: 0o700 });
    await writeFile(home.configPath, '{not json', { mode: 0o600 });
    for (const args of [['whoami'], ['forms', 'get', 'form_x']]) {
      const result = await home.lfk(args, { env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: server.baseUrl } });
      expectFailure(result, 1, 'config_invalid');
      expect(firstLine(result.stderr)).toContain(home.configPath);
    }
  });
});
