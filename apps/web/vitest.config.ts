import { defineConfig } from 'vitest/config';
import { testWorldOptions } from '../../vitest.shared.ts';

export default defineConfig({
  test: {
    ...testWorldOptions,
    // Also builds the dashboard once (when its sources changed) and finds a Chromium, before any file runs.
    globalSetup: [...testWorldOptions.globalSetup, './test/global-setup.ts'],
    // Each file runs its own server and Chromium: on two loaded cores, one file at a time.
    maxWorkers: 1,
  },
});
