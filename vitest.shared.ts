import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { configDefaults, type ViteUserConfig } from 'vitest/config';

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
 * Without Vite's `module` condition: it is for bundlers, and packages such as the AWS SDK's put an
 * ES build there whose extensionless imports Node cannot load (their `node` entry is what Node,
 * and so `npm start`, uses).
 */
export const sourceConditions = {
  ssr: { resolve: { conditions: ['lfk-source', ...defaultServerConditions.filter((condition) => condition !== 'module')] } },
} satisfies ViteUserConfig;

const testing = (file: string) => fileURLToPath(new URL(`./packages/db/src/testing/${file}`, import.meta.url));

/**
 * The test world of suites that run a server (docs/testing.md): one migrated database made per
 * run, copied once per worker and emptied before each file.
 */
export const testWorldOptions = {
  ...sharedTestOptions,
  globalSetup: [testing('global-setup.ts')],
  setupFiles: [testing('reset-between-files.ts')],
  pool: 'forks',
  maxWorkers: 2,
} satisfies ViteUserConfig['test'];

/**
 * The suite as two projects. `fast`: files share their worker's modules and database (no
 * isolation), so a file costs only its own tests. `slow`: the files named, which spawn processes or
 * wait out real time, each in a fresh worker as before.
 */
export function fastAndSlow(slow: string[]): ViteUserConfig['test'] {
  // A project's arrays are added to the root's: the root names no files, each project its own.
  const { include, ...root } = testWorldOptions;
  return {
    ...root,
    projects: [
      { extends: true, test: { name: 'fast', include, exclude: [...configDefaults.exclude, ...slow], isolate: false } },
      { extends: true, test: { name: 'slow', include: slow } },
    ],
  };
}
