import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Each file gets its own server and database; two cores run two at a time.
    pool: 'forks',
    maxWorkers: 2,
  },
});
