/**
 * Submission properties: for random form schemas, every valid submission is accepted and stored exactly
 * as the rules normalise it; a date field takes every real calendar date.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ABSENT,
  asJson,
  createPropertyForm,
  dateArb,
  type Field,
  NUM_RUNS,
  objectText,
  ORIGIN,
  storedSubmissions,
  SUBMISSION_LIMIT,
  submit,
  urlencodedText,
  useWorld,
  validCaseArb,
} from './fixtures.ts';

useWorld();

describe('submission properties (random schemas, through the server)', () => {
  it('every valid submission is taken (201) and stored exactly as normalised', async () => {
    await fc.assert(
      fc.asyncProperty(validCaseArb, async ({ schema, mode, encoding, entries }) => {
        const pairs = schema.map((f, i): [string, unknown] => [f.name, entries[i]!.sent]);
        const raw = encoding === 'json' ? objectText(pairs) : urlencodedText(pairs);
        fc.pre(Buffer.byteLength(raw) < SUBMISSION_LIMIT - 1024);
        const formId = await createPropertyForm(schema, mode);

        const res = await submit(formId, mode, raw, encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded');
        expect(res.status, res.body).toBe(201);
        expect(res.json).toEqual({ id: expect.stringMatching(/^sub_/), form_id: formId, created_at: expect.any(String) });
        if (mode === 'browser') expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
        else expect(res.headers['access-control-allow-origin']).toBeUndefined();

        const expected: Record<string, unknown> = {};
        schema.forEach((f, i) => {
          if (entries[i]!.expected !== ABSENT) expected[f.name] = entries[i]!.expected;
        });
        const stored = await storedSubmissions(formId);
        expect(stored).toHaveLength(1);
        expect(stored[0].id).toBe(res.json.id);
        expect(stored[0].source).toBe(mode);
        expect(stored[0].data).toStrictEqual(asJson(expected));
      }),
      { numRuns: 80 },
    );
  });

  it('a date field takes every real calendar date from 0001-01-01 to 9999-12-31', async () => {
    const schema: Field[] = [{ name: 'day', type: 'date', required: true }];
    const formId = await createPropertyForm(schema, 'api_key');
    let count = 0;
    await fc.assert(
      fc.asyncProperty(dateArb(1, 9999), async (day) => {
        const res = await submit(formId, 'api_key', JSON.stringify({ day }));
        expect(res.status, `${day}: ${res.body}`).toBe(201);
        count += 1;
        const stored = await storedSubmissions(formId);
        expect(stored[0].data).toStrictEqual({ day });
      }),
      {
        numRuns: NUM_RUNS,
        // The years a two-digit-year shortcut would get wrong, every time.
        examples: [['0001-01-01'], ['0050-06-15'], ['0099-12-31'], ['0096-02-29'], ['0100-03-01'], ['9999-12-31']],
      },
    );
    expect(count).toBeGreaterThan(0);
  });
});
