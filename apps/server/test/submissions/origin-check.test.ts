/**
 * Submissions end to end: browser-mode forms and the Origin check.
 */
import { describe, expect, it } from 'vitest';
import { expectError, FORM_URLENCODED, ORIGIN } from '@lfk/server/testing';
import { corsHeaderNames, countRows, createForm, expectCreated, LOCAL_ORIGIN, owner, postForm, storedRows, submit, t, useWorld } from './fixtures.ts';

useWorld();

describe('browser-mode submissions and the Origin check', () => {
  it('accepts JSON and urlencoded bodies from an allowed origin and stores what was sent', async () => {
    const form = await createForm();
    const fromJson = await submit(form.id, { name: 'Ada Lovelace', email: 'ada@example.com', age: 36, agree: true }, { origin: ORIGIN });
    expectCreated(fromJson, form.id);

    const fromForm = await postForm(form.id, 'name=Grace+Hopper&email=grace%40example.com&age=85&agree=on', {
      origin: LOCAL_ORIGIN,
    });
    expectCreated(fromForm, form.id);
    expect(fromForm.headers['content-type']).toMatch(/^application\/json/);

    const list = await t.request('GET', `/v1/forms/${form.id}/submissions`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json).toEqual({
      data: [
        {
          id: fromForm.json.id,
          form_id: form.id,
          data: { name: 'Grace Hopper', email: 'grace@example.com', age: 85, agree: true },
          source: 'browser',
          status: 'ok',
          spam_reason: null,
          // Scored by the content filter, and let through: a number, and what (if anything) it noticed.
          spam_score: expect.any(Number),
          spam_reasons: expect.any(Array),
          files: [],
          created_at: fromForm.json.created_at,
        },
        {
          id: fromJson.json.id,
          form_id: form.id,
          data: { name: 'Ada Lovelace', email: 'ada@example.com', age: 36, agree: true },
          source: 'browser',
          status: 'ok',
          spam_reason: null,
          // Scored by the content filter, and let through: a number, and what (if anything) it noticed.
          spam_score: expect.any(Number),
          spam_reasons: expect.any(Array),
          files: [],
          created_at: fromJson.json.created_at,
        },
      ],
      next_cursor: null,
    });

    const rows = await storedRows(form.id);
    expect(rows).toEqual([
      {
        id: fromJson.json.id,
        data: { name: 'Ada Lovelace', email: 'ada@example.com', age: 36, agree: true },
        source: 'browser',
        api_key_id: null,
      },
      {
        id: fromForm.json.id,
        data: { name: 'Grace Hopper', email: 'grace@example.com', age: 85, agree: true },
        source: 'browser',
        api_key_id: null,
      },
    ]);
  });

  it('refuses origins not exactly on the list (absent, null, other port/scheme, trailing slash) and stores nothing', async () => {
    const form = await createForm();
    const refused: (string | undefined)[] = [
      'https://evil.example',
      undefined,
      'null',
      'https://shop.example:8443',
      'http://shop.example',
      'https://shop.example/',
      'http://localhost:3001',
      'http://localhost',
      'https://localhost:3000',
      'https://sub.shop.example',
    ];
    const valid = { name: 'Mallory', email: 'mallory@example.com' };
    for (const origin of refused) {
      const label = origin ?? '(no Origin)';
      const json = await submit(form.id, valid, origin === undefined ? {} : { origin });
      expectError(json, 403, 'origin_not_allowed');
      expect(corsHeaderNames(json), label).toEqual([]);

      const urlencoded = await submit(form.id, undefined, {
        ...(origin === undefined ? {} : { origin }),
        raw: 'name=Mallory&email=mallory%40example.com',
        contentType: FORM_URLENCODED,
      });
      expectError(urlencoded, 403, 'origin_not_allowed');
    }
    // A refused origin is refused before validation: an invalid body from it is a 403 too.
    expectError(await submit(form.id, { nope: 1 }, { origin: 'https://evil.example' }), 403, 'origin_not_allowed');
    expect(await countRows(form.id)).toBe(0);
  });

  it('a form with no allowed origins takes no browser submissions at all', async () => {
    const form = await createForm({ allowed_origins: [] });
    expectError(await submit(form.id, { name: 'A', email: 'a@example.com' }, { origin: ORIGIN }), 403, 'origin_not_allowed');
    expectError(await submit(form.id, { name: 'A', email: 'a@example.com' }), 403, 'origin_not_allowed');
    expect(await countRows(form.id)).toBe(0);
  });
});
