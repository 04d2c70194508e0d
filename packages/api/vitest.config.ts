import { defineConfig } from 'vitest/config';
import { testWorldOptions } from '../../vitest.shared.ts';

// Most files here need no database; those that call procedures use the test world's.
// --expose-gc: object-storage.test.ts collects garbage before measuring what memory an object holds.
export default defineConfig({ test: { ...testWorldOptions, isolate: false, execArgv: ['--expose-gc'] } });
