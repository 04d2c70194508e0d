import { defineConfig } from 'vitest/config';
import { sharedTestOptions, sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    ...sharedTestOptions,
    // Each file runs its own server; the CLI runs as child processes beside it.
    pool: 'forks',
    maxWorkers: 2,
  },
});
