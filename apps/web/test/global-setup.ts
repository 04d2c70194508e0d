import { ensureKitBuilt } from '@lfk/browser/build';
import type { TestProject } from 'vitest/node';
import { ensureDashboardBuilt } from '../scripts/dashboard-build.ts';
import { findChromium, INSTALL_HINT } from './chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The browser the end-to-end tests drive; null skips them. */
    chromium: string | null;
  }
}

/**
 * Once per run: the browser kit's and the dashboard's builds are brought up to date (the tests
 * serve what `npm start` serves) and a Chromium is looked for. Without one the browser tests are skipped, saying so
 * once; CI sets LFK_REQUIRE_BROWSER=1, which makes a missing browser a failure.
 */
export default async function setup(project: TestProject) {
  await ensureKitBuilt((line) => process.stderr.write(`${line}\n`));
  await ensureDashboardBuilt((line) => process.stderr.write(`${line}\n`));
  const chromium = findChromium(process.env);
  if (!chromium) {
    if (process.env.LFK_REQUIRE_BROWSER === '1') throw new Error(`LFK_REQUIRE_BROWSER=1 but no Chromium was found: ${INSTALL_HINT}`);
    process.stderr.write(`\n⚠ Dashboard browser tests SKIPPED: no Chromium found. To run them, ${INSTALL_HINT}.\n\n`);
  }
  project.provide('chromium', chromium);
}
