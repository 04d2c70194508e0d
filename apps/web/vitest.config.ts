import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineConfig({
  test: {
    ...sharedTestOptions,
    // Builds the dashboard once (when its sources changed) and finds a Chromium, before any file runs.
    globalSetup: ['./test/global-setup.ts'],
    // Each file runs its own server and Chromium: on two loaded cores, one file at a time.
    pool: 'forks',
    maxWorkers: 1,
  },
});
