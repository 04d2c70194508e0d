/**
 * A verification link is opened by people and by machines: link checkers send HEAD, mail scanners
 * prefetch GET. So GET and HEAD only show a page with a "Verify" button and change nothing; the
 * button's plain HTML form post is what verifies (single use, 24 hours, the newest link only).
 */
import { describe, expect, it } from 'vitest';
import { type Res, useTestServer, verificationTokenSentTo } from '@lfk/server/testing';

const t = useTestServer();

let counter = 0;
const freshAddress = () => `link-${++counter}-${Date.now()}@example.com`;
const formBody = { name: 'Quotes', schema: [{ name: 'email', type: 'email', required: true }] };

/** An anonymous form whose notify_email was sent a link: the form's id and the link's path. */
async function formWithLink(): Promise<{ formId: string; to: string; path: string }> {
  const to = freshAddress();
  const created = await t.request('POST', '/v1/forms', { body: { ...formBody, notify_email: to } });
  expect(created.status, created.body).toBe(201);
  return { formId: created.json.id, to, path: `/v1/email-verifications/${await verificationTokenSentTo(t, to)}` };
}

/** What a browser sends when the page's button is pressed: an empty urlencoded form post, from our origin. */
function pressVerify(path: string, headers: Record<string, string> = {}): Promise<Res> {
  return t.request('POST', path, {
    raw: '',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
      origin: 'http://lfk.test',
      ...headers,
    },
  });
}

async function stored(formId: string): Promise<{ verified: boolean; linksUsed: number }> {
  const form = await t.sql<{ verified: boolean }>("select (notify_emails->0->>'verified')::boolean as verified from forms where id = ?", [formId]);
  const linksUsed = await t.count('email_verifications where form_id = ? and used_at is not null', [formId]);
  return { verified: form[0]!.verified, linksUsed };
}

function expectPage(res: Res, status: number, errorCode?: string) {
  expect(res.status, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
  expect(res.headers['cache-control']).toBe('no-store');
  const code = /<meta name="lfk-error-code" content="([a-z_]+)">/.exec(res.body)?.[1];
  expect(code).toBe(errorCode);
}

describe('opening a verification link changes nothing', () => {
  it('GET shows the address, the form and a Verify button that posts to the link; the address stays unverified', async () => {
    const { formId, to, path } = await formWithLink();
    const page = await t.request('GET', path);
    expectPage(page, 200);
    expect(page.body).toContain(to);
    expect(page.body).toContain('Quotes');
    // A relative action (the token): the post goes to the link itself.
    const token = path.split('/').pop()!;
    expect(page.body).toMatch(new RegExp(`<form method="post" action="${token}">\\s*<button type="submit">Verify</button>\\s*</form>`));
    expect(page.body).not.toContain('<script');
    expect(await stored(formId)).toEqual({ verified: false, linksUsed: 0 });
  });

  it('HEAD (a link checker) and repeated GETs (a mail scanner) leave the link working', async () => {
    const { formId, path } = await formWithLink();
    const head = await t.request('HEAD', path);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    for (let i = 0; i < 3; i++) expectPage(await t.request('GET', path), 200);
    expect(await stored(formId)).toEqual({ verified: false, linksUsed: 0 });

    expectPage(await pressVerify(path), 200);
    expect(await stored(formId)).toEqual({ verified: true, linksUsed: 1 });
  });
});

describe('the Verify button verifies', () => {
  it('the post verifies once and answers a page; the link then shows and posts a 404 page', async () => {
    const { formId, to, path } = await formWithLink();
    const verified = await pressVerify(path);
    expectPage(verified, 200);
    expect(verified.body).toContain('Address verified');
    expect(verified.body).toContain(to);
    expect(await stored(formId)).toEqual({ verified: true, linksUsed: 1 });

    expectPage(await pressVerify(path), 404, 'not_found');
    expectPage(await t.request('GET', path), 404, 'not_found');
    expect((await t.request('HEAD', path)).status).toBe(404);
  });

  it('two presses at once verify once: one page says verified, the other that the link was used', async () => {
    const { formId, path } = await formWithLink();
    const answers = await Promise.all(Array.from({ length: 6 }, () => pressVerify(path)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    expect(await stored(formId)).toEqual({ verified: true, linksUsed: 1 });
  });

  it('a newer link for the form replaces the older: the old one shows and posts a 404 page', async () => {
    const { key } = await t.signupWithKey();
    const to = freshAddress();
    const created = await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, notify_email: to } });
    const oldPath = `/v1/email-verifications/${await verificationTokenSentTo(t, to)}`;
    // A resend (once the interval has passed) sends a new link. (Changing the address away and back
    // sends none since issue 50: the link still waiting is kept for it.)
    await t.sql("update forms set verification_sent_at = now() - interval '1 hour' where id = ?", [created.json.id]);
    expect((await t.request('POST', `/v1/forms/${created.json.id}/resend-verification`, { token: key })).status).toBe(202);
    expect(await t.count('email_verifications where form_id = ?', [created.json.id])).toBe(1);
    expectPage(await t.request('GET', oldPath), 404, 'not_found');
    expectPage(await pressVerify(oldPath), 404, 'not_found');
    expect(await stored(created.json.id)).toEqual({ verified: false, linksUsed: 0 });
  });

  it('a link older than 24 hours shows and posts a 404 page', async () => {
    const { formId, path } = await formWithLink();
    await t.sql('update email_verifications set expires_at = ? where form_id = ?', [new Date(Date.now() - 1000).toISOString(), formId]);
    expectPage(await t.request('GET', path), 404, 'not_found');
    expectPage(await pressVerify(path), 404, 'not_found');
    expect(await stored(formId)).toEqual({ verified: false, linksUsed: 0 });
  });

  it('a post from another site verifies too: it carries no session, only the token the address was sent', async () => {
    const owner = await t.signup();
    const { formId, path } = await formWithLink();
    const crossSite = await pressVerify(path, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
      cookie: `lfk_session=${owner.token}`,
    });
    expectPage(crossSite, 200);
    expect(await stored(formId)).toEqual({ verified: true, linksUsed: 1 });
  });

  it('a post with no body or content type (a script, curl -X POST) verifies as well', async () => {
    const { formId, path } = await formWithLink();
    expectPage(await t.request('POST', path), 200);
    expect(await stored(formId)).toEqual({ verified: true, linksUsed: 1 });
  });
});

describe('the OpenAPI document', () => {
  it('describes opening the link (changes nothing) and its button (verifies), both answered with pages', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).json;
    const { get, post } = doc.paths['/v1/email-verifications/{token}'];
    expect(get.operationId).toBe('emailVerifications.preview');
    expect(get.description).toContain('GET and HEAD change nothing');
    // Besides the page and the broken link's 404: a refused bearer (401, or 429 when held back),
    // and what any request can meet; the button's post adds the body's limits.
    const anyRequest = ['400', '408', '431', '500', '503'];
    expect(Object.keys(get.responses).sort()).toEqual(['200', '401', '404', '429', ...anyRequest].sort());
    expect(post.operationId).toBe('emailVerifications.confirm');
    expect(Object.keys(post.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(Object.keys(post.responses).sort()).toEqual(['200', '401', '404', '413', '415', '429', ...anyRequest].sort());
    const media = (response: { $ref?: string; content: object }) =>
      Object.keys((response.$ref ? doc.components.responses[response.$ref.split('/').at(-1)!] : response).content);
    for (const [status, response] of [...Object.entries(get.responses), ...Object.entries(post.responses)]) {
      // What is refused before any route saw the request is JSON: too slow, headers too large,
      // a request Node cannot parse (400) and one that reaches a draining server (503). The route
      // answers pages, its 400s and 503s (the database away) included.
      const expected = ['408', '431'].includes(status)
        ? ['application/json']
        : ['400', '503'].includes(status)
          ? ['application/json', 'text/html']
          : ['text/html'];
      expect(media(response as { content: object }), status).toEqual(expected);
    }
  });

  it('a refused bearer on a link gets the 401 the document lists, as a page', async () => {
    const res = await t.request('GET', '/v1/email-verifications/lfv_nope', { token: 'lfk_nope' });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('content="invalid_api_key"');
  });
});
