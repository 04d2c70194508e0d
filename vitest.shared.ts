import type { ViteUserConfig } from 'vitest/config';

/**
 * What every package's tests share. Limits are sized for PGlite starting on a loaded 2-core
 * machine, not for a quiet one: a test's time is never its verdict.
 */
export const sharedTestOptions = {
  include: ['test/**/*.test.ts'],
  testTimeout: 120_000,
  hookTimeout: 120_000,
} satisfies ViteUserConfig['test'];
