import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '@lfk/server/testing';

// The README's first command starts the server through npm. Stopping npm — SIGTERM from a process
// manager, or Ctrl-C — must stop the server too, not leave it running without its parent.

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm start', () => {
  it('SIGTERM to npm reaches the server, which shuts down cleanly', { timeout: 300_000 }, async () => {
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: join(import.meta.dirname, '../../../..'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', LFK_DATA_DIR: 'memory://', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk) => (output += chunk));
    npm.stderr.on('data', (chunk) => (output += chunk));
    try {
      const ready = await until(
        'the server to be ready',
        () =>
          output
            .split('\n')
            .map((line) => (line.startsWith('{') ? JSON.parse(line) : null))
            .find((entry) => entry?.msg === 'lfk is ready'),
        // npm start first rebuilds the dashboard when its sources changed: on a loaded machine, a while.
        240_000,
      );
      const serverPid: number = ready.pid;
      expect(serverPid).not.toBe(npm.pid);
      npm.kill('SIGTERM');
      await until('the server process to end', () => (alive(serverPid) ? undefined : true), 60_000);
      expect(output).toContain('"msg":"shutting down"');
      expect(output).toContain('"msg":"lfk stopped"');
    } finally {
      npm.kill('SIGKILL');
    }
  });

  it('SIGINT stops it even when the reader of its output is gone (`npm start | tee log`, Ctrl-C)', { timeout: 300_000 }, async () => {
    const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
      cwd: join(import.meta.dirname, '../../../..'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', LFK_DATA_DIR: 'memory://', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    let output = '';
    server.stdout.on('data', (chunk) => (output += chunk));
    try {
      await until('the server to be ready', () => (output.includes('"msg":"lfk is ready"') ? true : undefined), 240_000);
      // What tee's death does: the pipe's reading end closes, so every later write fails with EPIPE.
      server.stdout.destroy();
      server.stderr.destroy();
      server.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('a port already in use is said in one line, with what to do, and the process exits 1', { timeout: 300_000 }, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
        cwd: join(import.meta.dirname, '../../../..'),
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), LFK_DATA_DIR: 'memory://', LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let errors = '';
      server.stderr.on('data', (chunk) => (errors += chunk));
      const code = await new Promise<number | null>((resolve) => server.on('exit', resolve));
      expect(code).toBe(1);
      expect(errors).toBe(`lfk: 127.0.0.1:${port} is already in use (another lfk?). Stop it, or choose another port with PORT.\n`);
    } finally {
      taken.close();
    }
  });
});
