import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file runs its own server; the CLI runs as child processes beside it.
    pool: 'forks',
    maxWorkers: 2,
  },
});
