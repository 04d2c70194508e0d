/**
 * Submissions end to end: the pages a person reads after an HTML form post speak to them (not to a
 * developer), name fields by their labels, and lead back to the site; pages may read useful headers.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_ACCEPT, ORIGIN, useTestServer } from '@lfk/server/testing';
import { countRows, createForm, headerList, postForm, submit, useWorld } from './fixtures.ts';

useWorld();

const labelled = [
  { name: 'name', type: 'text', required: true, label: 'Your name' },
  { name: 'email', type: 'email', required: true, label: 'Email address' },
  { name: 'age', type: 'number' },
];

/** The text of a page, without its markup. */
const textOf = (html: string) =>
  html
    .replace(/<style>[^<]*<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

const linksOf = (html: string) => [...html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => ({ href: m[1], label: m[2] }));

describe('the page after a refused HTML form post', () => {
  it('422 asks the person to check their answers and names each field by its label (its name when it has none)', async () => {
    const form = await createForm({ schema: labelled });
    const res = await postForm(form.id, 'email=not-an-email&age=lots', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status, res.body).toBe(422);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const text = textOf(res.body);
    expect(text).toContain('Please check your answers');
    expect(res.body).toMatch(/<li>Your name: Is required\.<\/li>/);
    expect(res.body).toMatch(/<li>Email address: [^<]+<\/li>/);
    expect(res.body).toMatch(/<li>age: [^<]+<\/li>/);
    expect(text).not.toMatch(/schema/i);
    expect(res.body).toContain('<meta name="lfk-error-code" content="validation_failed">');
    expect(await countRows(form.id)).toBe(0);
  });

  it('403 (a page the form does not take answers from) tells the person nothing was sent and whom to tell, not to correct anything', async () => {
    const form = await createForm({ schema: labelled });
    const res = await postForm(form.id, 'name=Ada&email=ada%40example.com', {
      origin: 'https://elsewhere.example',
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(res.status, res.body).toBe(403);
    const text = textOf(res.body);
    expect(text).toContain('Your answers were not sent.');
    expect(text).toContain('owner');
    expect(text).not.toMatch(/correct|origin|schema/i);
    expect(res.body).toContain('<meta name="lfk-error-code" content="origin_not_allowed">');
    expect(await countRows(form.id)).toBe(0);
  });

  it('404 says the form no longer exists', async () => {
    const res = await postForm('form_00000000000000000000000000', 'name=Ada', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status, res.body).toBe(404);
    expect(textOf(res.body)).toContain('This form no longer exists');
  });
});

describe('the page after a rate-limited HTML form post', () => {
  const limited = useTestServer({ LFK_RATE_LIMIT_BROWSER_SUBMISSIONS: '1/1h' });

  it('429 asks the person to wait as long as Retry-After says', async () => {
    const user = await limited.signup();
    const form = await createForm({}, limited, user);
    const first = await postForm(form.id, 'name=Ada&email=ada%40example.com', { server: limited, headers: { accept: BROWSER_ACCEPT } });
    expect(first.status, first.body).toBe(200);
    const second = await postForm(form.id, 'name=Ada&email=ada%40example.com', { server: limited, headers: { accept: BROWSER_ACCEPT } });
    expect(second.status, second.body).toBe(429);
    const wait = Number(second.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(textOf(second.body)).toContain(`Wait ${wait} seconds, then send the form again.`);
    expect(await countRows(form.id, limited)).toBe(1);
  });
});

describe('the thank-you page', () => {
  it('leads back to the page the form was on, when the browser names it on the allowed origin', async () => {
    const form = await createForm();
    const res = await postForm(form.id, 'name=Ada&email=ada%40example.com', {
      headers: { accept: BROWSER_ACCEPT, referer: `${ORIGIN}/contact?from=nav` },
    });
    expect(res.status, res.body).toBe(200);
    expect(textOf(res.body)).toContain('Your answers were sent.');
    expect(linksOf(res.body)).toEqual([{ href: `${ORIGIN}/contact?from=nav`, label: `Back to ${new URL(ORIGIN).host}` }]);
  });

  it("leads to the allowed origin's home when the browser sent no referrer, or one from another site", async () => {
    const form = await createForm();
    const bare = await postForm(form.id, 'name=Ada&email=ada%40example.com', { headers: { accept: BROWSER_ACCEPT } });
    expect(linksOf(bare.body)).toEqual([{ href: `${ORIGIN}/`, label: `Back to ${new URL(ORIGIN).host}` }]);
    const foreign = await postForm(form.id, 'name=Ada&email=ada%40example.com', {
      headers: { accept: BROWSER_ACCEPT, referer: 'https://elsewhere.example/phish' },
    });
    expect(linksOf(foreign.body)).toEqual([{ href: `${ORIGIN}/`, label: `Back to ${new URL(ORIGIN).host}` }]);
  });
});

describe('headers a page may read', () => {
  it('a browser submission exposes x-request-id, idempotent-replayed and retry-after to the page', async () => {
    const form = await createForm();
    const res = await submit(form.id, { name: 'Ada', email: 'ada@example.com' }, { origin: ORIGIN });
    expect(res.status, res.body).toBe(201);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(headerList(res, 'access-control-expose-headers').sort()).toEqual(['idempotent-replayed', 'retry-after', 'x-request-id']);
  });

  it('a refused origin gets no CORS headers at all', async () => {
    const form = await createForm();
    const res = await submit(form.id, { name: 'Ada', email: 'ada@example.com' }, { origin: 'https://elsewhere.example' });
    expect(res.status, res.body).toBe(403);
    expect(res.headers['access-control-expose-headers']).toBeUndefined();
  });
});
