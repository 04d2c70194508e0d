/**
 * Hostile input (issue 11): one line where one line is meant; URLs stored normalised; every value fits its column.
 */
import { describe, expect, it } from 'vitest';
import { expectDocumentedError, PASSWORD } from '@lfk/server/testing';
import {
  BODY_CASES,
  bodyRoutes,
  everyCase,
  expectInvalid,
  expectTrpcError,
  formBody,
  formId,
  freshEmail,
  key,
  openFormId,
  opts,
  ORIGIN,
  owner,
  stranger,
  t,
  useWorld,
} from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Issue 11: one line where one line is meant; URLs stored normalised; every value fits its column.
// ---------------------------------------------------------------------------------------------

describe('issue 11: single-line strings, stored URLs, column limits', () => {
  /** Line breaks and controls that trimming or the URL parser once dropped or let through. */
  const NOT_ONE_LINE = ['a\r\nBcc: x@example.com', 'a\nb', 'a\rb', 'a\tb', 'a\u0085b', 'a\u009bb', 'a\u2028b', 'a\n', '\ta'];

  it('every text field of every body route refuses line breaks, tabs and C1 controls → 400 naming it', async () => {
    const withText = bodyRoutes.filter((r) => BODY_CASES[r.procedure]?.textField);
    expect(withText.length).toBeGreaterThan(0);
    await everyCase(
      withText.flatMap((route) => NOT_ONE_LINE.map((bad) => [route, bad] as const)),
      async ([route, bad]) => {
        const c = BODY_CASES[route.procedure]!;
        const res = await t.request(route.method, c.url(), opts(c, { body: { ...c.valid(), [c.textField!]: bad } }));
        expectInvalid(res, c.textField!, `${route.method} ${route.path} ${JSON.stringify(bad)}`);
      },
    );
  });

  it('emails refuse them too: sign-up, invitations and notify_email', async () => {
    await everyCase(['\n', '\r\n', '\t', '\u0085'], async (bad) => {
      const what = JSON.stringify(bad);
      expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: `${freshEmail()}${bad}`, password: PASSWORD } }), 'email', what);
      expectInvalid(
        await t.request('POST', `/v1/workspaces/${owner.workspaceId}/invitations`, { token: owner.token, body: { email: `${bad}${stranger.email}` } }),
        'email',
        what,
      );
      expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { notify_email: `a${bad}@example.com` } }), 'notify_email', what);
    });
  });

  it('the form name "Contact\\r\\nBcc: x" → 400 on tRPC create and update too', async () => {
    const name = 'Contact\r\nBcc: x';
    const created = await t.request('POST', '/trpc/forms.create', { token: key, body: { ...formBody, name } });
    expect(expectTrpcError(created, 400, 'invalid_request').details?.map((d) => d.path)).toContain('name');
    const updated = await t.request('POST', '/trpc/forms.update', { token: key, body: { form_id: formId, name } });
    expect(expectTrpcError(updated, 400, 'invalid_request').details?.map((d) => d.path)).toContain('name');
  });

  it('redirect_url and allowed_origins with a tab, CR or LF → 400 naming them; nothing stored', async () => {
    const [before] = await t.sql<{ redirect_url: string | null }>('select redirect_url from forms where id = ?', [formId]);
    await everyCase(['\t', '\r', '\n', '\r\n', '\u0000', '\u0085'], async (bad) => {
      const what = JSON.stringify(bad);
      const url = `https://example.com/th${bad}anks`;
      expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, redirect_url: url } }), 'redirect_url', what);
      expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { redirect_url: url } }), 'redirect_url', what);
      expectInvalid(
        await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { allowed_origins: [`https://exa${bad}mple.com`] } }),
        'allowed_origins.0',
        what,
      );
    });
    const [after] = await t.sql<{ redirect_url: string | null }>('select redirect_url from forms where id = ?', [formId]);
    expect(after).toEqual(before);
  });

  it('an IDN host and a unicode path are stored as punycode and percent-encoding', async () => {
    const res = await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { redirect_url: 'https://例え.jp/merci-✓' } });
    expect(res.status, res.body).toBe(200);
    expect(res.json.redirect_url).toBe('https://xn--r8jz45g.jp/merci-%E2%9C%93');
    const [row] = await t.sql<{ redirect_url: string }>('select redirect_url from forms where id = ?', [formId]);
    expect(row!.redirect_url).toBe('https://xn--r8jz45g.jp/merci-%E2%9C%93');
  });

  it('submissions: a line break in a single-line field, or ESC in a textarea → 422 naming the field', async () => {
    const url = `/v1/forms/${openFormId}/submissions`;
    await everyCase(
      [
        [{ email: 'a@example.com\r\nBcc: x@example.com' }, 'email'],
        [{ email: '\ta@example.com' }, 'email'],
        [{ message: 'fine\n\u001b[2Jnot fine' }, 'message'],
        [{ message: 'c1 \u009b31m' }, 'message'],
      ] as const,
      async ([data, field]) => {
        const res = await t.request('POST', url, { body: data, headers: { origin: ORIGIN } });
        const error = expectDocumentedError(res, 422, 'validation_failed', JSON.stringify(data));
        expect(error.details).toEqual([{ path: field, message: expect.any(String) }]);
      },
    );
  });

  it('a sign-up name of 89 to 100 characters → 201 (its workspace name is cut to fit); 101 → 400', async () => {
    await everyCase([89, 95, 100], async (length) => {
      const res = await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: PASSWORD, name: 'n'.repeat(length) } });
      expect(res.status, `${length} → ${res.body.slice(0, 300)}`).toBe(201);
      expect(res.json.workspace.name.length).toBeLessThanOrEqual(100);
    });
    expectInvalid(await t.request('POST', '/v1/auth/signup', { body: { email: freshEmail(), password: PASSWORD, name: 'n'.repeat(101) } }), 'name');
  });

  it('a redirect_url that overflows its column only once percent-encoded → 400, never a 500', async () => {
    const url = `https://example.com/${'✓'.repeat(300)}`;
    expectInvalid(await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body: { redirect_url: url } }), 'redirect_url');
    expectInvalid(await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, redirect_url: url } }), 'redirect_url');
  });
});
