import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.ts';

export default defineConfig({
  test: {
    ...sharedTestOptions,
    // Each file runs its own server; the CLI runs as child processes beside it.
    pool: 'forks',
    maxWorkers: 2,
  },
});
