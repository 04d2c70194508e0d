import { defineConfig } from 'vitest/config';
import { sharedTestOptions, sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    ...sharedTestOptions,
    pool: 'forks',
  },
});
