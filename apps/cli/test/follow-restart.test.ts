/**
 * `lfk submissions list --follow` through a server restart: the real bin, talking to the server
 * through a TCP hop the test takes down and brings back. It waits with backoff (real time), says
 * once that the server is gone and once that it is back, and prints what arrived meanwhile.
 */
import { startTcpHop, until } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followSubmissions, keyedForm, newHome, server, signupWithCli, startWorld, stopWorld } from './harness.ts';

beforeAll(() => startWorld({ owner: false }));
afterAll(stopWorld);

describe('submissions list --follow, through a server restart', () => {
  it('waits the server out with backoff, says so once each way, and prints what arrived meanwhile', async () => {
    // The CLI talks to the server through a hop the test takes down and brings back, as a restart does.
    const hop = await startTcpHop(server.baseUrl);
    const home = await newHome({ LFK_BASE_URL: hop.url });
    await signupWithCli(home, server, { baseUrl: hop.url });
    const { formId, submit } = await keyedForm(home, 'Restarted');
    const before = await submit('before the restart');
    const followed = followSubmissions(home, formId, { LFK_BASE_URL: hop.url });
    try {
      await until('the first page', () => followed.ids().length === 1);
      await hop.down();
      await until('the loss to be said', () => followed.stderr().includes(`Lost ${hop.url.replace(/\/$/, '')}`));
      const meanwhile = await submit('while the server was away');
      await hop.up();
      // stdout and stderr are two pipes: what the CLI wrote to each may reach the test in either order.
      const back = `Back in touch with ${hop.url.replace(/\/$/, '')}; watching again.`;
      await until('the submission made meanwhile, and the return said', () => followed.ids().length === 2 && followed.stderr().includes(back));
      expect(followed.ids()).toEqual([before, meanwhile]);
      expect(followed.stderr().match(/Lost /g)).toHaveLength(1);
      expect(followed.exited()).toBeNull();
    } finally {
      followed.stop();
      await hop.close();
    }
  });
});
