/**
 * Issue 39: the embedded server gives back the memory a burst of work left, once it falls idle
 * (src/idle-memory-trim.ts). The collection itself is V8's; what is tested is when it is asked for.
 */
import { until } from '@lfk/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { idleMemoryTrim } from '../../src/idle-memory-trim.ts';

const LOOK_EVERY_MS = 200;
let stop: (() => unknown) | undefined;
afterEach(() => stop?.());

/** Keeps this thread's event loop busy for `ms`, as a burst of requests would. */
function burst(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) Math.sqrt(Math.random());
}

describe('idleMemoryTrim', () => {
  it('after a burst of work, once the event loop is idle, asks for one memory-reducing collection', async () => {
    const asked: unknown[] = [];
    const task = idleMemoryTrim(async (options) => void asked.push(options), LOOK_EVERY_MS);
    task.start();
    stop = () => task.stop();
    burst(LOOK_EVERY_MS * 1.5);
    await until('the trim to ask for a collection', () => asked.length > 0);
    expect(asked[0]).toEqual({ type: 'major', execution: 'async', flavor: 'last-resort' });
  });
});
