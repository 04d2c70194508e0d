import { defineConfig } from 'vitest/config';
import { sourceConditions, testWorldOptions } from '../../vitest.shared.ts';

export default defineConfig({ ...sourceConditions, test: { ...testWorldOptions, isolate: false } });
