/**
 * After an HTML form post the visitor is sent on with a 303 whose `Location` is always a valid
 * header value (the URL's ASCII form), whatever an older version stored as `redirect_url`; a
 * value that is no http(s) URL, or holds control characters, gets the thank-you page instead.
 * Either way the submission is stored once and the answer is never a 500.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, countSubmissions, createContactForm, ORIGIN, postHtmlForm, type Res, submit, useTestServer, VALID } from '@lfk/server/testing';

const t = useTestServer();
let owner: Account;

beforeAll(async () => {
  owner = await t.signup();
});

/** A form whose redirect_url was stored as is, as an older version did, bypassing today's rules. */
async function formRedirectingTo(stored: string) {
  const form = await createContactForm(t, owner);
  await t.sql('update forms set redirect_url = ? where id = ?', [stored, form.id]);
  return form;
}

const FIELDS = 'name=Ada&email=ada%40example.com';
const HEADER_VALUE = /^[\x21-\x7e]+$/;

/** An HTML form post to a form whose redirect_url was stored as `stored`: answered `status`, and stored once. */
async function postToFormRedirectingTo(stored: string, status: number): Promise<Res> {
  const form = await formRedirectingTo(stored);
  const res = await postHtmlForm(t, form.id, FIELDS, { origin: ORIGIN });
  expect(res.status, res.body.slice(0, 300)).toBe(status);
  expect(await countSubmissions(t, form.id)).toBe(1);
  return res;
}

describe('the 303 after a form post, for redirect_urls stored raw', () => {
  it.each([
    ['https://例え.jp/thanks', 'https://xn--r8jz45g.jp/thanks'],
    ['https://example.com/merci-✓', 'https://example.com/merci-%E2%9C%93'],
    ['https://example.com/danke schön?für=dich', 'https://example.com/danke%20sch%C3%B6n?f%C3%BCr=dich'],
  ])('%s → 303 to its ASCII form, one submission stored', async (stored, location) => {
    const res = await postToFormRedirectingTo(stored, 303);
    expect(res.headers.location).toBe(location);
    expect(String(res.headers.location)).toMatch(HEADER_VALUE);
  });

  it.each([
    ['a tab', 'https://example.com/a\tb'],
    ['CR/LF', 'https://example.com/x\r\nSet-Cookie: a=b'],
    ['another control character', 'https://example.com/\u0007'],
    ['not a URL', 'thanks page'],
    ['another scheme', 'javascript:alert(1)'],
  ])('%s → the thank-you page (200, HTML, no Location), one submission stored', async (_what, stored) => {
    const res = await postToFormRedirectingTo(stored, 200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('Your answers were sent.');
  });

  it('a JSON submission to such a form is a plain 201', async () => {
    const form = await formRedirectingTo('https://例え.jp/thanks');
    const res = await submit(t, form.id, VALID, { origin: ORIGIN });
    expect(res.status, res.body).toBe(201);
    expect(res.headers.location).toBeUndefined();
  });
});
