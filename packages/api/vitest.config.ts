import { defineConfig } from 'vitest/config';
import { testWorldOptions } from '../../vitest.shared.ts';

// Most files here need no database; those that call procedures use the test world's.
export default defineConfig({ test: { ...testWorldOptions, isolate: false } });
