/**
 * Every URL the API stores (a form's `redirect_url` and `allowed_origins`) is stored normalised:
 * punycode host, percent-encoded path, origins as scheme://host[:port]. Control characters are
 * refused (400 invalid_request naming the field), never silently dropped by the URL parser. The
 * same on create and PATCH, over REST and tRPC.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Res, useTestServer } from '@lfk/server/testing';

const t = useTestServer();
let key: string;

const SCHEMA = [{ name: 'email', type: 'email' }];

beforeAll(async () => {
  ({ key } = await t.signupWithKey());
});

type Transport = 'rest' | 'trpc';

/** Creates a form through one transport; returns the status and the form (or the error body). */
async function create(via: Transport, body: Record<string, unknown>): Promise<{ status: number; res: Res; form: any }> {
  const full = { name: 'URLs', schema: SCHEMA, ...body };
  const res =
    via === 'rest'
      ? await t.request('POST', '/v1/forms', { token: key, body: full })
      : await t.request('POST', '/trpc/forms.create', { token: key, body: full });
  return { status: res.status, res, form: via === 'rest' ? res.json : res.json?.result?.data };
}

async function update(via: Transport, formId: string, body: Record<string, unknown>) {
  const res =
    via === 'rest'
      ? await t.request('PATCH', `/v1/forms/${formId}`, { token: key, body })
      : await t.request('POST', '/trpc/forms.update', { token: key, body: { form_id: formId, ...body } });
  return { status: res.status, res, form: via === 'rest' ? res.json : res.json?.result?.data };
}

/** lfk's error (REST body or tRPC `error.data`) → its code and details' paths. */
function errorOf(via: Transport, res: Res): { code: string; paths: string[] } {
  const error = via === 'rest' ? res.json?.error : res.json?.error?.data;
  return { code: error?.code, paths: (error?.details ?? []).map((d: { path: string }) => d.path) };
}

async function storedRow(formId: string) {
  const [row] = await t.sql<{ redirect_url: string | null; allowed_origins: unknown }>('select redirect_url, allowed_origins from forms where id = ?', [
    formId,
  ]);
  const origins = typeof row!.allowed_origins === 'string' ? JSON.parse(row!.allowed_origins) : row!.allowed_origins;
  return { redirectUrl: row!.redirect_url, allowedOrigins: origins as string[] };
}

const NORMALISED: [string, string][] = [
  ['https://例え.jp/thanks', 'https://xn--r8jz45g.jp/thanks'],
  ['https://example.com/merci-✓', 'https://example.com/merci-%E2%9C%93'],
  ['HTTPS://Example.COM:443/a b?q=é#top', 'https://example.com/a%20b?q=%C3%A9#top'],
];

const ORIGINS: [string, string][] = [
  ['https://例え.jp', 'https://xn--r8jz45g.jp'],
  ['HTTP://Example.COM:80', 'http://example.com'],
];

/** Characters the URL parser would silently strip or that end a header line. */
const CONTROL_URLS = [
  'https://example.com/th\tanks',
  'https://example.com/thanks\r\nSet-Cookie: x=1',
  'https://example.com/\nthanks',
  'https://exa\rmple.com/thanks',
  '\thttps://example.com/thanks',
  'https://example.com/thanks\u0000',
  'https://example.com/\u007fthanks',
  'https://example.com/\u0085thanks',
];
const CONTROL_ORIGINS = ['https://exa\tmple.com', 'https://example.com\n', '\rhttps://example.com', 'https://exam\u009bple.com'];

describe.each(['rest', 'trpc'] as const)('URLs are stored normalised (%s)', (via) => {
  it('redirect_url on create: punycode host, percent-encoded path, in the answer and the stored row', async () => {
    for (const [given, normalised] of NORMALISED) {
      const { status, res, form } = await create(via, { redirect_url: given });
      expect(status, `${given} → ${res.body}`).toBe(via === 'rest' ? 201 : 200);
      expect(form.redirect_url).toBe(normalised);
      expect((await storedRow(form.id)).redirectUrl).toBe(normalised);
    }
  });

  it('redirect_url on PATCH: the same normalisation', async () => {
    const { form } = await create(via, {});
    for (const [given, normalised] of NORMALISED) {
      const updated = await update(via, form.id, { redirect_url: given });
      expect(updated.status, `${given} → ${updated.res.body}`).toBe(200);
      expect(updated.form.redirect_url).toBe(normalised);
      expect((await storedRow(form.id)).redirectUrl).toBe(normalised);
    }
  });

  it('allowed_origins on create and PATCH: stored as punycode scheme://host[:port]', async () => {
    const { status, res, form } = await create(via, { allowed_origins: ORIGINS.map(([given]) => given) });
    expect(status, res.body).toBe(via === 'rest' ? 201 : 200);
    const expected = ORIGINS.map(([, normalised]) => normalised);
    expect(form.allowed_origins).toEqual(expected);
    expect((await storedRow(form.id)).allowedOrigins).toEqual(expected);
    const updated = await update(via, form.id, { allowed_origins: [ORIGINS[0]![0]] });
    expect(updated.form.allowed_origins).toEqual([ORIGINS[0]![1]]);
    expect((await storedRow(form.id)).allowedOrigins).toEqual([ORIGINS[0]![1]]);
  });

  it('a redirect_url that grows past 2048 characters when percent-encoded → 400, never a 500', async () => {
    // 300 × "✓" is 300 characters as sent and 2,700 once encoded: the stored form is what must fit.
    const long = `https://example.com/${'✓'.repeat(300)}`;
    const created = await create(via, { redirect_url: long });
    expect(created.status, created.res.body).toBe(400);
    expect(errorOf(via, created.res)).toEqual({ code: 'invalid_request', paths: ['redirect_url'] });
  });

  it('control characters in redirect_url → 400 invalid_request naming it, on create and PATCH; nothing stored', async () => {
    const { form } = await create(via, { redirect_url: 'https://example.com/ok' });
    for (const bad of CONTROL_URLS) {
      const what = JSON.stringify(bad);
      const created = await create(via, { redirect_url: bad });
      expect(created.status, `create ${what} → ${created.res.body}`).toBe(400);
      expect(errorOf(via, created.res), what).toEqual({ code: 'invalid_request', paths: ['redirect_url'] });
      const updated = await update(via, form.id, { redirect_url: bad });
      expect(updated.status, `PATCH ${what} → ${updated.res.body}`).toBe(400);
      expect(errorOf(via, updated.res), what).toEqual({ code: 'invalid_request', paths: ['redirect_url'] });
    }
    expect((await storedRow(form.id)).redirectUrl).toBe('https://example.com/ok');
  });

  it('control characters in an allowed origin → 400 naming the entry, on create and PATCH', async () => {
    const { form } = await create(via, { allowed_origins: ['https://ok.example'] });
    for (const bad of CONTROL_ORIGINS) {
      const what = JSON.stringify(bad);
      const created = await create(via, { allowed_origins: ['https://ok.example', bad] });
      expect(created.status, `create ${what} → ${created.res.body}`).toBe(400);
      expect(errorOf(via, created.res), what).toEqual({ code: 'invalid_request', paths: ['allowed_origins.1'] });
      const updated = await update(via, form.id, { allowed_origins: [bad] });
      expect(updated.status, `PATCH ${what} → ${updated.res.body}`).toBe(400);
      expect(errorOf(via, updated.res), what).toEqual({ code: 'invalid_request', paths: ['allowed_origins.0'] });
    }
    expect((await storedRow(form.id)).allowedOrigins).toEqual(['https://ok.example']);
  });
});
