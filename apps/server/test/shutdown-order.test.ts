/**
 * The server stops as its one list of tasks says, in reverse: requests first, then the work they
 * started, the sweeps and queues, the connections and buffer those use, and the database last.
 * The names are read from the list (each feature adds its own); what is checked is the order's rules.
 * (The processes that receive a real SIGTERM are in server, durability and background-write-failures.)
 */
import { ENGINE, useTestServer } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

describe('shutdown', () => {
  const t = useTestServer();

  it('stops requests first and the database last, and every task that may queue mail before the mailer', () => {
    const stops = t.server.tasks.names().reverse();
    const before = (a: string, b: string) => expect(stops.indexOf(a), `${a} stops before ${b}`).toBeLessThan(stops.indexOf(b));
    expect(stops.slice(0, 2)).toEqual(['requests', 'metrics server']);
    // The embedded server's only (src/idle-memory-trim.ts).
    if (ENGINE === 'pglite') expect(stops[2]).toBe('idle memory trim');
    expect(stops.slice(-2)).toEqual(['database outage watch', 'database']);
    // Work a request started is finished before what it may use.
    expect(stops.indexOf('request work')).toBe(ENGINE === 'pglite' ? 3 : 2);
    for (const mailing of ['key lifecycle sweep', 'webhook worker', 'retention sweep']) before(mailing, 'email sender');
    before('webhook worker', 'webhook connections');
    before('upload sweep', 'file storage');
    before('key-use buffer', 'database');
  });
});
