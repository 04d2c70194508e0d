import { defineConfig } from 'vitest/config';
import { serverPerFileOptions, sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({ ...sourceConditions, test: serverPerFileOptions });
