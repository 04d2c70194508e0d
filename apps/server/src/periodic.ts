import type { Log } from '@lfk/api';

export interface Periodic {
  /** No further runs; resolves once a run in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `everyMs`, never two at once. A failed run is logged and the next one tries
 * again: one failure neither stops the loop nor reaches whoever stops it.
 */
export function every(everyMs: number, what: string, task: () => Promise<void>, log: Log): Periodic {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= task()
      .catch((err) => log.warn({ err }, `could not ${what}; trying again in ${everyMs / 1000} s`))
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
