/**
 * Submission properties: no JSON body at all makes the server answer 5xx.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyBodyArb, createPropertyForm, type Mode, schemaArb, storedSubmissions, SUBMISSION_LIMIT, submit, t, useWorld } from './fixtures.ts';

useWorld();

describe('submission properties (random schemas, through the server)', () => {
  it('no JSON body makes the server fail: always 201, 400, 413 or 422 in the one error shape', async () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const toStringBefore = Object.prototype.toString;
    const errorLines = () =>
      t.logs.filter((line) => {
        try {
          return JSON.parse(line).level >= 50;
        } catch {
          return false;
        }
      }).length;
    const errorsBefore = errorLines();

    const caseArb = schemaArb.chain((schema) =>
      fc.record({ schema: fc.constant(schema), mode: fc.constantFrom<Mode>('api_key', 'browser'), raw: anyBodyArb(schema) }),
    );
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ schema, mode, raw }) => {
        const formId = await createPropertyForm(schema, mode);
        const res = await submit(formId, mode, raw);
        expect(res.status, res.body.slice(0, 500)).toBeLessThan(500);
        expect([201, 400, 413, 422]).toContain(res.status);

        // What the answer must be, from the body's own shape.
        let parsed: unknown;
        let parses = true;
        try {
          parsed = raw.trim() === '' ? null : JSON.parse(raw);
        } catch {
          parses = false;
        }
        if (Buffer.byteLength(raw) > SUBMISSION_LIMIT) {
          expect(res.status).toBe(413);
          expect(res.json.error.code).toBe('payload_too_large');
        } else if (!parses) {
          expect(res.status).toBe(400);
          expect(res.json.error.code).toBe('invalid_json');
        } else if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
          expect(res.status).toBe(400);
          expect(res.json.error.code).toBe('invalid_request');
        } else {
          expect([201, 422]).toContain(res.status);
        }

        const names = new Set(schema.map((f) => f.name));
        const stored = await storedSubmissions(formId);
        if (res.status === 201) {
          expect(res.json.id).toMatch(/^sub_/);
          expect(stored).toHaveLength(1);
          // Nothing the schema does not name is ever kept.
          for (const k of Object.keys(stored[0].data)) expect(names.has(k)).toBe(true);
          for (const k of Object.keys(parsed ?? {})) expect(names.has(k)).toBe(true);
        } else {
          expect(res.json.error).toEqual(expect.objectContaining({ code: expect.any(String), message: expect.any(String), request_id: expect.any(String) }));
          expect(stored).toEqual([]);
        }
        if (res.status === 422) {
          expect(res.json.error.code).toBe('validation_failed');
          const details: { path: string }[] = res.json.error.details;
          expect(details.length).toBeGreaterThan(0);
          const allowed = new Set([...names, ...Object.keys(parsed ?? {}).map((k) => k.slice(0, 100))]);
          for (const d of details) expect(allowed.has(d.path)).toBe(true);
        }

        // No body reaches Object.prototype (the server runs in this very process).
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
        expect(Object.prototype.toString).toBe(toStringBefore);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      }),
      { numRuns: 80 },
    );
    // And nothing was logged as an unexpected failure.
    expect(errorLines()).toBe(errorsBefore);
  });
});
