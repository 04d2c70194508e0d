/**
 * At a terminal: a slow request.
 */
import { createServer as createNetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newHome, onTerminal, startWorld, stopWorld } from './fixtures.ts';

beforeAll(startWorld);
afterAll(stopWorld);

describe('a slow request', () => {
  it('shows a spinner on the terminal while it waits, and clears it before the error', async () => {
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.resume(); // reads the request, never answers
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const home = await newHome();
      const { code, output } = await onTerminal(home, ['--timeout', '2', 'forms', 'get', 'form_x'], {
        env: { LFK_API_KEY: 'lfk_anything', LFK_BASE_URL: `http://127.0.0.1:${port}` },
      }).exit;
      expect(code, output).toBe(1);
      expect(output).toContain(`Waiting for 127.0.0.1:${port}…`);
      // The spinner's line is blanked, so the error starts a clean line of its own.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing colour escapes is the point.
      const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
      const errorLines = plain.split(/\r?\n/).filter((line) => line.includes('error: timeout'));
      expect(errorLines).toHaveLength(1);
      // What the terminal shows of that line: after the last carriage return, the error alone.
      expect(errorLines[0]!.split('\r').at(-1)).toMatch(/^error: timeout: /);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
