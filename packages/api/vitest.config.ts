import { defineConfig } from 'vitest/config';
import { testWorldOptions } from '../../vitest.shared.ts';

// Most files here need no database; those that call procedures use the test world's.
// A feature's tests sit beside its code (src/**/*.test.ts), as do the tables' coverage checks.
// --expose-gc: object-storage.test.ts collects garbage before measuring what memory an object holds.
export default defineConfig({
  test: { ...testWorldOptions, include: [...testWorldOptions.include, 'src/**/*.test.ts'], isolate: false, execArgv: ['--expose-gc'] },
});
