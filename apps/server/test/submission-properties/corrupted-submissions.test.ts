/**
 * Submission properties: for random form schemas, every corrupted submission is refused with one detail
 * per corrupted field, and nothing is stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPropertyForm, invalidCaseArb, objectText, ORIGIN, sorted, storedSubmissions, SUBMISSION_LIMIT, submit, useWorld } from './fixtures.ts';

useWorld();

describe('submission properties (random schemas, through the server)', () => {
  it('every corrupted submission is refused (422) with exactly the corrupted fields as details, and nothing stored', async () => {
    await fc.assert(
      fc.asyncProperty(invalidCaseArb, async ({ schema, mode, entries, corrupted, extras }) => {
        const bad = new Map(corrupted);
        const pairs: [string, unknown][] = schema.map((f, i) => [f.name, bad.has(i) ? bad.get(i) : entries[i]!.sent]);
        pairs.push(...extras);
        const raw = objectText(pairs);
        fc.pre(Buffer.byteLength(raw) < SUBMISSION_LIMIT - 1024);
        const formId = await createPropertyForm(schema, mode);

        const res = await submit(formId, mode, raw);
        expect(res.status, res.body).toBe(422);
        expect(res.json.error.code).toBe('validation_failed');
        const details: { path: string; message: string }[] = res.json.error.details;
        const expectedPaths = [...corrupted.map(([i]) => schema[i]!.name), ...extras.map(([name]) => name.slice(0, 100))];
        expect(sorted(details.map((d) => d.path))).toEqual(sorted(expectedPaths));
        for (const d of details) expect(d.message).toMatch(/\S/);
        if (mode === 'browser') expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);

        expect(await storedSubmissions(formId)).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });
});
