import { defineConfig } from 'vitest/config';
import { sourceConditions, testWorldOptions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    ...testWorldOptions,
    // Also builds the dashboard once (when its sources changed) and finds a Chromium, before any file runs.
    globalSetup: [...testWorldOptions.globalSetup, './test/global-setup.ts'],
    // Files share one worker, and in it the Chromium (test/fixtures.ts); each runs its own server.
    // One at a time: a browser and a server already keep two loaded cores busy.
    maxWorkers: 1,
    isolate: false,
  },
});
