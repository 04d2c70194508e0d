import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { bundleKit } from '../scripts/build.ts';

/** The budget of issue 53: what a page downloads for the kit, minified and gzipped. */
const BUDGET_BYTES = 6 * 1024;

it(`the kit is at most ${BUDGET_BYTES / 1024} KiB minified and gzipped`, async () => {
  const code = await bundleKit();
  const gzipped = gzipSync(code, { level: 9 }).length;
  expect(gzipped, `lfk.js: ${code.length} bytes minified, ${gzipped} gzipped`).toBeLessThanOrEqual(BUDGET_BYTES);
});

it('is one script with no import left: a classic <script> runs it as is', async () => {
  const code = await bundleKit();
  expect(code).not.toMatch(/\bimport\s*[({'"]|\brequire\(/);
  expect(code).toContain('lfk:');
});
