import { performance } from 'node:perf_hooks';
import type { BackgroundTask } from '@lfk/api';

/** How often the server looks at how busy it was. */
const LOOK_EVERY_MS = 5_000;
/** Busier than this (event loop utilisation over one look) is a burst of work. */
const BUSY = 0.05;
/** Quieter than this is idle. */
const IDLE = 0.01;

type Gc = (options: { type: 'major'; execution: 'async'; flavor: 'last-resort' }) => Promise<void>;

/**
 * Once the server falls idle after a burst of work, one memory-reducing collection gives back the
 * heap the burst freed. V8 keeps those pages pooled for reuse, and measured on the embedded server
 * it did not give them back by itself: 360–450 MiB resident 40 s after 5 s of submissions, 250 MiB
 * after one such collection (docs/decisions.md, issue 39). Only where Node runs with `--expose-gc`
 * (apps/server/*.node-flags, as `npm start` runs it); elsewhere nothing.
 * Idleness is read from the event loop's utilisation, so requests pay nothing for it.
 */
export function idleMemoryTrim(gc: Gc | undefined = (globalThis as { gc?: Gc }).gc, lookEveryMs = LOOK_EVERY_MS): BackgroundTask {
  let timer: NodeJS.Timeout | undefined;
  let last = performance.eventLoopUtilization();
  let busySinceTrim = false;
  return {
    name: 'idle memory trim',
    start() {
      if (!gc) return;
      timer = setInterval(() => {
        const now = performance.eventLoopUtilization();
        const utilisation = performance.eventLoopUtilization(now, last).utilization;
        last = now;
        if (utilisation > BUSY) busySinceTrim = true;
        else if (utilisation < IDLE && busySinceTrim) {
          busySinceTrim = false;
          void gc({ type: 'major', execution: 'async', flavor: 'last-resort' });
        }
      }, lookEveryMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
