/**
 * Issue 41: every refused HTML form post is a page in the visitor's words (or, when the form names
 * one, a 303 to its `error_redirect_url` with the codes in the query string), leading back to the
 * page the form was on when that is one of the form's origins.
 */
import { describe, expect, it } from 'vitest';
import { createContactForm, FORM_URLENCODED, ORIGIN, type Res, submitMultipart, type TestServer, useTestServer } from '@lfk/server/testing';

const PAGE_ON_SITE = `${ORIGIN}/contact?lang=en`;
const schema = [
  { name: 'name', type: 'text', required: true, label: 'Your name' },
  { name: 'email', type: 'email', required: true, label: 'Email address' },
  { name: 'cv', type: 'file' },
];

/** What a browser sends with a form post made on `PAGE_ON_SITE`. */
function post(t: TestServer, formId: string, raw: string | Buffer, contentType = FORM_URLENCODED, origin = ORIGIN): Promise<Res> {
  return t.request('POST', `/v1/forms/${formId}/submissions`, {
    raw,
    headers: { 'content-type': contentType, accept: 'text/html,application/xhtml+xml', origin, referer: origin === ORIGIN ? PAGE_ON_SITE : `${origin}/page` },
  });
}

/** A page for a person: its status, its code for programs, and the link back, if any. */
function expectPage(res: Res, status: number, code: string, back: string | null) {
  expect(res.status, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.body).toContain(`<meta name="lfk-error-code" content="${code}">`);
  if (back) expect(res.body).toContain(`<a href="${back.replaceAll('&', '&amp;')}">Back to ${new URL(back).host}</a>`);
  else expect(res.body).not.toContain('Back to ');
}

describe('a refused HTML form post is a page', () => {
  const t = useTestServer({ LFK_CLAMD_URL: 'tcp://127.0.0.1:9', LFK_RATE_LIMIT_BROWSER_SUBMISSIONS: '3/1h' });

  async function form(overrides: Record<string, unknown> = {}) {
    const owner = await t.signup();
    return createContactForm(t, owner, { schema, ...overrides });
  }

  it('422: each problem by its field’s label, and a way back to the page the form was on', async () => {
    const { id } = await form();
    const res = await post(t, id, 'name=&email=nope');
    expectPage(res, 422, 'validation_failed', PAGE_ON_SITE);
    expect(res.body).toContain('<li>Your name: Is required.</li>');
    expect(res.body).toContain('<li>Email address: Must be an email address.</li>');
  });

  it('400, 413 and 415: a body that cannot be read, is too large, or of a type no form takes', async () => {
    const { id } = await form();
    expectPage(await post(t, id, 'x', 'multipart/form-data'), 400, 'invalid_request', PAGE_ON_SITE);
    const tooLarge = await post(t, id, `name=${'x'.repeat(300_000)}`);
    expectPage(tooLarge, 413, 'payload_too_large', PAGE_ON_SITE);
    expect(tooLarge.body).toContain('Your answers are too long');
    // A form with enctype="text/plain".
    const plainText = await post(t, id, 'name=Ada\r\nemail=ada@example.com', 'text/plain');
    expectPage(plainText, 415, 'unsupported_media_type', PAGE_ON_SITE);
    expect(plainText.body).toContain('This form cannot be sent this way');
  });

  it('403: from a page the form does not take answers from there is no way back; a closed or full form leads back', async () => {
    const { id } = await form();
    expectPage(await post(t, id, 'name=Ada&email=ada%40example.com', FORM_URLENCODED, 'https://elsewhere.example'), 403, 'origin_not_allowed', null);
    const closed = await form({ closed: true, closed_message: 'Applications ended on Friday.' });
    const refused = await post(t, closed.id, 'name=Ada&email=ada%40example.com');
    expectPage(refused, 403, 'form_closed', PAGE_ON_SITE);
    expect(refused.body).toContain('Applications ended on Friday.');
    const full = await form({ max_submissions: 1 });
    expect((await post(t, full.id, 'name=Ada&email=ada%40example.com')).status).toBe(200);
    expectPage(await post(t, full.id, 'name=Grace&email=grace%40example.com'), 403, 'form_closed', PAGE_ON_SITE);
  });

  it('429: wait as Retry-After says, then go back', async () => {
    const { id } = await form();
    for (let i = 0; i < 3; i++) expect((await post(t, id, 'name=Ada&email=ada%40example.com')).status).toBe(200);
    const limited = await post(t, id, 'name=Ada&email=ada%40example.com');
    expectPage(limited, 429, 'rate_limited', PAGE_ON_SITE);
    expect(limited.body).toMatch(/Wait \d+ seconds?, then send the form again\./);
  });

  it('503: a file cannot be checked now; try again shortly', async () => {
    const { id } = await form();
    const res = await submitMultipart(
      t,
      id,
      [
        { name: 'name', value: 'Ada' },
        { name: 'email', value: 'ada@example.com' },
        { name: 'cv', file: Buffer.from('%PDF-1.4\n'), filename: 'cv.pdf' },
      ],
      {
        origin: ORIGIN,
        headers: { accept: 'text/html', referer: PAGE_ON_SITE },
      },
    );
    expectPage(res, 503, 'scanner_unavailable', PAGE_ON_SITE);
    expect(res.body).toContain('Please try again shortly');
  });

  it('a script’s fetch, which asks for anything but a page, still gets JSON', async () => {
    const { id } = await form();
    const res = await t.request('POST', `/v1/forms/${id}/submissions`, {
      raw: 'name=',
      headers: { 'content-type': FORM_URLENCODED, origin: ORIGIN, accept: '*/*' },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('validation_failed');
  });
});

describe('error_redirect_url', () => {
  const t = useTestServer();

  it('sends a refused visitor there instead, with the code and the fields at fault; a success still thanks them', async () => {
    const owner = await t.signup();
    const made = await createContactForm(t, owner, { schema: schema.slice(0, 2), error_redirect_url: 'https://shop.example/oops?from=contact' });
    expect(made).toMatchObject({ error_redirect_url: 'https://shop.example/oops?from=contact' });
    const invalid = await post(t, made.id, 'name=&email=nope&email=twice');
    expect(invalid.status).toBe(303);
    expect(invalid.headers.location).toBe('https://shop.example/oops?from=contact&error=validation_failed&fields=name%2Cemail');
    const tooLarge = await post(t, made.id, `name=${'x'.repeat(300_000)}`);
    expect(tooLarge.status).toBe(303);
    expect(tooLarge.headers.location).toBe('https://shop.example/oops?from=contact&error=payload_too_large');
    const elsewhere = await post(t, made.id, 'name=Ada&email=ada%40example.com', FORM_URLENCODED, 'https://elsewhere.example');
    expect(elsewhere.headers.location).toBe('https://shop.example/oops?from=contact&error=origin_not_allowed');
    expect((await post(t, made.id, 'name=Ada&email=ada%40example.com')).status).toBe(200);
    // JSON callers are answered in JSON, as always.
    const json = await t.request('POST', `/v1/forms/${made.id}/submissions`, { body: { name: '' }, headers: { origin: ORIGIN } });
    expect(json.status).toBe(422);
  });

  it('takes an http(s) URL only, and null clears it', async () => {
    const owner = await t.signup();
    const made = await createContactForm(t, owner);
    for (const bad of ['javascript:alert(1)', 'ftp://files.example', 'not a url']) {
      const res = await t.request('PATCH', `/v1/forms/${made.id}`, { token: owner.token, body: { error_redirect_url: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.json.error.details[0].path).toBe('error_redirect_url');
    }
    const set = await t.request('PATCH', `/v1/forms/${made.id}`, { token: owner.token, body: { error_redirect_url: 'https://shop.example/oops' } });
    expect(set.json.error_redirect_url).toBe('https://shop.example/oops');
    const cleared = await t.request('PATCH', `/v1/forms/${made.id}`, { token: owner.token, body: { error_redirect_url: null } });
    expect(cleared.json.error_redirect_url).toBeNull();
    expect((await post(t, made.id, 'name=')).status).toBe(422);
  });
});
