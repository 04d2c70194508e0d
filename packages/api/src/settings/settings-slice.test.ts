import { describe, expect, it } from 'vitest';
import { API_SETTINGS, apiSettingsSchema } from '../features.ts';
import { wholeNumber } from './env-values.ts';
import { settingsSchema, settingsSlice } from './settings-slice.ts';

describe('settings slices', () => {
  it('declare each variable once across the kernel, the rate limits and every feature', () => {
    const declared = API_SETTINGS.flatMap((slice) => Object.keys(slice.env));
    expect(declared.length).toBeGreaterThan(30);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it('refuse a variable declared by two slices, naming it', () => {
    const one = settingsSlice({ env: { LFK_EXAMPLE: wholeNumber(0, 10, 1) }, read: (e) => ({ one: e.LFK_EXAMPLE }) });
    const other = settingsSlice({ env: { LFK_EXAMPLE: wholeNumber(0, 99, 5) }, read: (e) => ({ other: e.LFK_EXAMPLE }) });
    expect(() => settingsSchema([one, other])).toThrow('Declared by two settings slices: LFK_EXAMPLE');
  });

  it('read an empty environment into every default', () => {
    const settings = apiSettingsSchema.parse({});
    expect(settings.port).toBe(3000);
    expect(settings.apiKeyCache).toEqual({ maxEntries: 10_000, ttlMs: 30_000 });
  });
});
