/**
 * What the CLI's error and network files share: the real server where lfk itself is needed, an owner
 * and an anonymous home, and small fake servers and proxies on 127.0.0.1 for misbehaviour.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { Server as NetServer } from 'node:net';
import { expect } from 'vitest';
import { type Home, type LfkResult, type LfkServerUnderTest, signupWithCli, startServer, tempHome } from '../harness.ts';

export const STACK_LINE = /^\s+at /m;

/** A failure as the CLI must report it: the exit code, `error: <code>: ` first, no stack, nothing on stdout. */
export function expectFailure(result: LfkResult, exitCode: number, code: string): void {
  expect(result.code, result.stderr).toBe(exitCode);
  expect(result.stderr.startsWith(`error: ${code}: `), result.stderr).toBe(true);
  expect(result.stderr).not.toMatch(STACK_LINE);
  expect(result.stdout).toBe('');
}

export const firstLine = (text: string) => text.split('\n')[0];

export interface Recorded {
  method: string;
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export const cleanups: Array<() => Promise<void>> = [];
/** Closes every fake server and proxy the test started. */
export async function closeFakeServers(): Promise<void> {
  while (cleanups.length) await cleanups.pop()?.();
}

export function listen(server: Server | NetServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port'));
      resolve(address.port);
    });
  });
}

export const closeHttp = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** An HTTP server on 127.0.0.1 that records each request (with its body) before `answer` responds. */
export async function fakeHttp(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<FakeServer> {
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

export const answer503 = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(503, { 'content-type': 'text/plain' });
  res.end('Service Unavailable');
};

/**
 * Forwards every request to `target` and records the request line it received: an absolute URL when
 * used as an HTTP proxy (HTTP_PROXY), a path when used as a reverse proxy (--base-url).
 */
export async function forwardingProxy(target: string): Promise<FakeServer> {
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

export let server: LfkServerUnderTest;
/** Signed up on the real server; holds a session and its workspace in its config. */
export let owner: Home;
/** A fresh home with nothing in it. */
export let anon: Home;
export let apiKey: string;
export let formId: string;

/** The real server, an owner signed up with a key and a form, and a home that is signed in nowhere. */
export async function startWorld(): Promise<void> {
  server = await startServer();
  owner = await tempHome({ LFK_BASE_URL: '' });
  anon = await tempHome({ LFK_BASE_URL: '' });
  await signupWithCli(owner, server);
  const key = await owner.lfk(['keys', 'create', '--name', 'network-tests', '--json']);
  if (key.code !== 0) throw new Error(`keys create failed: ${key.stderr}`);
  apiKey = key.json.key;
  const form = await owner.lfk(['forms', 'create', '--name', 'Contact', '--field', 'email:email', '--json'], {
    env: { LFK_API_KEY: apiKey },
  });
  if (form.code !== 0) throw new Error(`forms create failed: ${form.stderr}`);
  formId = form.json.id;
}

export async function stopWorld(): Promise<void> {
  await server?.close();
  await owner?.remove();
  await anon?.remove();
}
