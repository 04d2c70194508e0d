/**
 * `lfk submissions list --follow` through a server restart: the real bin, talking to the server
 * through a TCP hop the test takes down and brings back. It waits with backoff (real time), says
 * once that the server is gone and once that it is back, and prints what arrived meanwhile.
 */
import { spawn } from 'node:child_process';
import { startTcpHop, until } from '@lfk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LFK_BIN, newHome, server, signupWithCli, startWorld, stopWorld } from './harness.ts';

beforeAll(() => startWorld({ owner: false }));
afterAll(stopWorld);

describe('submissions list --follow, through a server restart', () => {
  it('waits the server out with backoff, says so once each way, and prints what arrived meanwhile', async () => {
    // The CLI talks to the server through a hop the test takes down and brings back, as a restart does.
    const hop = await startTcpHop(server.baseUrl);
    const home = await newHome({ LFK_BASE_URL: hop.url });
    await signupWithCli(home, hop.url);
    const key = (await home.lfk(['keys', 'create', '--name', 'restart', '--json'])).json.key;
    const form = await home.lfk(['forms', 'create', '--name', 'Restarted', '--field', 'message:text', '--mode', 'api_key', '--json']);
    const submit = (message: string) =>
      fetch(`${server.baseUrl}/v1/forms/${form.json.id}/submissions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message }),
      }).then((res) => res.json() as Promise<{ id: string }>);
    const before = await submit('before the restart');

    const child = spawn(process.execPath, [LFK_BIN, 'submissions', 'list', form.json.id, '--follow', '--json'], {
      env: { PATH: process.env.PATH ?? '', HOME: home.dir, XDG_CONFIG_HOME: `${home.dir}/.config`, LFK_BASE_URL: hop.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let exited: number | null = null;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => (exited = code));
    const ids = () => stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id);
    try {
      await until('the first page', () => ids().length === 1);
      await hop.down();
      await until('the loss to be said', () => stderr.includes(`Lost ${hop.url.replace(/\/$/, '')}`));
      const meanwhile = await submit('while the server was away');
      await hop.up();
      await until('the submission made meanwhile', () => ids().length === 2);
      expect(ids()).toEqual([before.id, meanwhile.id]);
      expect(stderr).toContain(`Back in touch with ${hop.url.replace(/\/$/, '')}; watching again.`);
      expect(stderr.match(/Lost /g)).toHaveLength(1);
      expect(exited).toBeNull();
    } finally {
      child.kill('SIGINT');
      await hop.close();
    }
  });
});
