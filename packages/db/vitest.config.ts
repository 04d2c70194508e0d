import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Sized for PGlite starting on a loaded 2-core machine, not for a quiet one: a test's time is never its verdict.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
