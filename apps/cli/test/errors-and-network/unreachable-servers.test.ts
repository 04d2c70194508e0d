/**
 * The CLI against a server that is down, one that never answers, and one that is not lfk.
 */
import { createServer as createNetServer, type Socket } from 'node:net';
import { freePort } from '@lfk/server/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anon, cleanups, closeFakeServers, expectFailure, fakeHttp, firstLine, listen, startWorld, stopWorld } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);
afterEach(closeFakeServers);

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
  /**
   * A server that accepts connections and reads requests but never answers; records each
   * connection's life, and whether a request came on it.
   */
  async function silentServer() {
    const sockets = new Set<Socket>();
    const lives: { opened: number; closed?: number; requested: boolean }[] = [];
    const silent = createNetServer((socket) => {
      const life: { opened: number; closed?: number; requested: boolean } = { opened: performance.now(), requested: false };
      lives.push(life);
      sockets.add(socket);
      socket.on('close', () => {
        life.closed = performance.now();
        sockets.delete(socket);
      });
      socket.on('error', () => {});
      // Read the request, never answer it.
      socket.on('data', () => {
        life.requested = true;
      });
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
    // The real bin: a connection's life ends with the process, as a person's would.
    const result = await anon.spawn(['--timeout', '2', 'forms', 'get', 'form_x'], {
      env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: `http://127.0.0.1:${port}` },
      timeoutMs: 60_000,
    });
    const elapsed = performance.now() - started;
    expectFailure(result, 1, 'timeout');
    expect(firstLine(result.stderr)).toBe(`error: timeout: No answer from http://127.0.0.1:${port} within 2 s.`);
    expect(result.stderr).toContain('--timeout');
    // A query is retried on a timeout, but not past the command's deadline: the one attempt used it all.
    // (As it gives up, Node's fetch opens one more connection and closes it at once, asking nothing.)
    const attempts = lives.filter((life) => life.requested);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.closed! - attempts[0]!.opened).toBeGreaterThan(1_500);
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
