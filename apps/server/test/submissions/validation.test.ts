/**
 * Submissions end to end: validation against the form's schema.
 */
import { describe, expect, it } from 'vitest';
import { expectError, ORIGIN } from '@lfk/server/testing';
import { countRows, createForm, expectCreated, member, postForm, storedRows, submit, t, useWorld } from './fixtures.ts';

useWorld();

describe('validation', () => {
  const everyType = [
    { name: 'name', type: 'text', required: true },
    { name: 'bio', type: 'textarea' },
    { name: 'email', type: 'email', required: true },
    { name: 'age', type: 'number' },
    { name: 'site', type: 'url' },
    { name: 'phone', type: 'tel' },
    { name: 'born', type: 'date' },
    { name: 'agree', type: 'checkbox', required: true },
    { name: 'news', type: 'checkbox' },
    { name: 'plan', type: 'select', options: ['free', 'pro'] },
  ];

  it('answers 422 validation_failed with one details entry per bad field', async () => {
    const form = await createForm({ schema: everyType });
    const res = await submit(
      form.id,
      {
        bio: { nested: 'object' },
        email: 'not-an-email',
        age: 'twelve',
        site: 'ftp://files.example',
        phone: '12',
        born: '2026-02-30',
        agree: false,
        plan: 'enterprise',
        extra: 'who am I',
      },
      { origin: ORIGIN },
    );
    expectError(res, 422, 'validation_failed');
    const details: { path: string; message: string }[] = res.json.error.details;
    expect(details.map((d) => d.path).sort()).toEqual(['name', 'bio', 'email', 'age', 'site', 'phone', 'born', 'agree', 'plan', 'extra'].sort());
    const message = (path: string) => details.find((d) => d.path === path)!.message;
    expect(message('name')).toBe('Is required.');
    expect(message('bio')).toBe('Must be a single value.');
    for (const d of details) expect(d.message.length, d.path).toBeGreaterThan(0);
    expect(await countRows(form.id)).toBe(0);
  });

  it('flags each kind of bad value on its own', async () => {
    const form = await createForm({ schema: everyType });
    const base = { name: 'Ada', email: 'ada@example.com', agree: true };
    const cases: [string, Record<string, unknown>][] = [
      ['name', { name: '   ' }],
      ['name', { name: null }],
      ['email', { email: 'ada@' }],
      ['age', { age: '1,5' }],
      ['age', { age: '0x10' }],
      ['age', { age: true }],
      ['site', { site: 'javascript:alert(1)' }],
      ['site', { site: 'not a url' }],
      ['phone', { phone: 'call me' }],
      ['born', { born: '2026-02-30' }],
      ['born', { born: '2025-13-01' }],
      ['born', { born: '10/12/1815' }],
      ['agree', { agree: 'off' }],
      ['agree', { agree: 'maybe' }],
      ['plan', { plan: 'Pro' }],
      ['plan', { plan: ['pro'] }],
      ['name', { name: 'nul\u0000byte' }],
      ['name', { name: 'lone \ud800 surrogate' }],
      ['name', { name: 'x'.repeat(10_001) }],
      ['surname', { surname: 'Lovelace' }],
    ];
    const withoutAgree = await submit(form.id, { name: 'Ada', email: 'ada@example.com' }, { origin: ORIGIN });
    expectError(withoutAgree, 422, 'validation_failed');
    expect(withoutAgree.json.error.details.map((d: { path: string }) => d.path)).toEqual(['agree']);
    for (const [path, override] of cases) {
      const res = await submit(form.id, { ...base, ...override }, { origin: ORIGIN });
      expectError(res, 422, 'validation_failed');
      expect(
        res.json.error.details.map((d: { path: string }) => d.path),
        JSON.stringify(override).slice(0, 80),
      ).toEqual([path]);
    }
    expect(await countRows(form.id)).toBe(0);
  });

  it('stores a valid submission with every field type normalised', async () => {
    const form = await createForm({ schema: everyType });
    const fromJson = await submit(
      form.id,
      {
        name: '  Ada  ',
        bio: 'line one\nline two  ',
        email: '  ada@example.com ',
        age: '42.5',
        site: ' https://ada.example/notes ',
        phone: ' +44 (20) 7946-0958 ',
        born: '1815-12-10',
        agree: 'on',
        plan: 'pro',
      },
      { origin: ORIGIN },
    );
    expectCreated(fromJson, form.id);

    const typed = await submit(
      form.id,
      { name: 'Grace', email: 'grace@example.com', age: -7, agree: true, news: 'yes', site: '', phone: '   ', born: null },
      { origin: ORIGIN },
    );
    expectCreated(typed, form.id);

    const fromForm = await postForm(form.id, 'name=Linus&email=linus%40example.com&age=1e3&agree=1&news=off&plan=free&bio=');
    expectCreated(fromForm, form.id);

    const expected = [
      {
        name: '  Ada  ',
        bio: 'line one\nline two  ',
        email: 'ada@example.com',
        age: 42.5,
        site: 'https://ada.example/notes',
        phone: '+44 (20) 7946-0958',
        born: '1815-12-10',
        agree: true,
        news: false,
        plan: 'pro',
      },
      { name: 'Grace', email: 'grace@example.com', age: -7, agree: true, news: true },
      { name: 'Linus', email: 'linus@example.com', age: 1000, agree: true, news: false, plan: 'free' },
    ];
    const rows = await storedRows(form.id);
    expect(rows.map((r) => r.id)).toEqual([fromJson.json.id, typed.json.id, fromForm.json.id]);
    expect(rows.map((r) => r.data)).toEqual(expected);

    const list = await t.request('GET', `/v1/forms/${form.id}/submissions`, { token: member.token });
    expect(list.status).toBe(200);
    expect(list.json.data.map((s: { data: unknown }) => s.data)).toEqual([...expected].reverse());
    expect(typeof list.json.data[2].data.age).toBe('number');
    expect(typeof list.json.data[2].data.agree).toBe('boolean');
  });
});
