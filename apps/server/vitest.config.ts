import { defineConfig } from 'vitest/config';
import { sharedTestOptions, sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    ...sharedTestOptions,
    // Each file gets its own server and database; two cores run two at a time.
    pool: 'forks',
    maxWorkers: 2,
  },
});
