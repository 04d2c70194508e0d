/**
 * Submissions end to end: plain HTML form posts, answered with a redirect or a page.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_ACCEPT, expectError } from '@lfk/server/testing';
import { corsHeaderNames, countRows, createForm, postForm, storedRows, useWorld } from './fixtures.ts';

useWorld();

describe('HTML form posts', () => {
  it('redirects with 303 to redirect_url when the form has one', async () => {
    const form = await createForm({ redirect_url: 'https://shop.example/thanks?from=lfk' });
    expect(form.redirect_url).toBe('https://shop.example/thanks?from=lfk');
    const res = await postForm(form.id, 'name=Ada&email=ada%40example.com&agree=on', {
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(res.status, res.body).toBe(303);
    expect(res.headers.location).toBe('https://shop.example/thanks?from=lfk');
    const rows = await storedRows(form.id);
    expect(rows.map((r) => r.data)).toEqual([{ name: 'Ada', email: 'ada@example.com', agree: true }]);
  });

  it('answers a thank-you page when there is no redirect_url', async () => {
    const form = await createForm();
    const res = await postForm(form.id, 'name=Ada&email=ada%40example.com', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
    expect(res.body).toContain('Thank you');
    expect(res.headers.location).toBeUndefined();
    expect(await storedRows(form.id)).toMatchObject([{ data: { name: 'Ada', email: 'ada@example.com', agree: false } }]);
  });

  it('answers a validation error with a 422 HTML page listing the bad fields', async () => {
    const form = await createForm({ redirect_url: 'https://shop.example/thanks' });
    const res = await postForm(form.id, 'email=not-an-email&age=lots', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status, res.body).toBe(422);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toMatch(/<li>[^<]*email[^<]*<\/li>/);
    expect(res.body).toMatch(/<li>[^<]*name[^<]*Is required\.<\/li>/);
    expect(res.body).toMatch(/<li>[^<]*age[^<]*<\/li>/);
    expect(await countRows(form.id)).toBe(0);
  });

  it('answers a refused origin with a 403 HTML page', async () => {
    const form = await createForm();
    const res = await postForm(form.id, 'name=Ada&email=ada%40example.com', {
      origin: 'https://evil.example',
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(res.status, res.body).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(corsHeaderNames(res)).toEqual([]);
    expect(await countRows(form.id)).toBe(0);
  });

  it('a field name repeated in a urlencoded body is a 422 for that field', async () => {
    const form = await createForm();
    const res = await postForm(form.id, 'name=Ada&name=Grace&email=ada%40example.com');
    expectError(res, 422, 'validation_failed');
    expect(res.json.error.details).toEqual([{ path: 'name', message: 'Must be a single value.' }]);
    expect(await countRows(form.id)).toBe(0);
  });
});
