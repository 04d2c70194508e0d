/**
 * The server stops as its one list of tasks says, in reverse: requests first, then the work they
 * started, the sweeps and queues, the connections and buffer those use, and the database last.
 * (The processes that receive a real SIGTERM are in server, durability and background-write-failures.)
 */
import { ENGINE, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

const SHUTDOWN_STEPS = [
  'requests',
  'metrics server',
  // The embedded server's only (src/idle-memory-trim.ts).
  ...(ENGINE === 'pglite' ? ['idle memory trim'] : []),
  'request work',
  'idempotency sweep',
  'rate limit sweep',
  'key lifecycle sweep',
  'upload sweep',
  'retention sweep',
  'webhook worker',
  'email sender',
  'file storage',
  'webhook connections',
  'captcha connections',
  'key-use buffer',
  'form change listener',
  'revocation listener',
  'database outage watch',
  'database',
];

describe('shutdown', () => {
  const t = useTestServer();

  it(`runs the ${SHUTDOWN_STEPS.length} steps in order: the server’s tasks, last started first`, () => {
    expect(t.server.tasks.names().reverse()).toEqual(SHUTDOWN_STEPS);
  });
});
