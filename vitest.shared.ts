import { defaultServerConditions } from 'vite';
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

/**
 * Workspace packages that are also published (`@lfk/client`) point their default export at the
 * build; their `lfk-source` condition points at the TypeScript sources, which is what tests run.
 */
export const sourceConditions = {
  ssr: { resolve: { conditions: ['lfk-source', ...defaultServerConditions] } },
} satisfies ViteUserConfig;

/** For suites whose files each start a server and database of their own: two cores run two at a time. */
export const serverPerFileOptions = {
  ...sharedTestOptions,
  pool: 'forks',
  maxWorkers: 2,
} satisfies ViteUserConfig['test'];
