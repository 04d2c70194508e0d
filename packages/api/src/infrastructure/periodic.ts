import type { Log } from '../log.ts';
import type { BackgroundTask } from './background-task.ts';

/**
 * Runs `run` every `everyMs` once started, never two at once. A failed run is logged (`could not
 * ${what}`) and the next one tries again: one failure neither stops the loop nor reaches whoever
 * stops it. Stopping waits for a run in progress.
 */
export function periodic(name: string, what: string, everyMs: number, run: () => Promise<void>, log: Log): BackgroundTask {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  return {
    name,
    start() {
      timer ??= setInterval(() => {
        running ??= run()
          .catch((err) => log.warn({ err }, `could not ${what}; trying again in ${everyMs / 1000} s`))
          .finally(() => {
            running = undefined;
          });
      }, everyMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
