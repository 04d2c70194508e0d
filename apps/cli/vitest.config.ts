import { defineConfig } from 'vitest/config';
import { sourceConditions, testWorldOptions } from '../../vitest.shared.ts';

// The CLI runs as child processes beside each file's server.
export default defineConfig({ ...sourceConditions, test: testWorldOptions });
