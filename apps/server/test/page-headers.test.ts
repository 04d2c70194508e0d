/**
 * Issue 36: every HTML answer carries its security headers, from one place (`http/page-headers.ts`):
 * never framed, never sniffed, no Referer (a link's token is in its path), a Content-Security-Policy
 * with `frame-ancestors 'none'` and no inline script; lfk's own pages also no script at all, their one
 * style by its hash, and no cache. The pages are walked three ways: each HTML answer the OpenAPI
 * document lists, produced for real (a page and an error page per operation, and the document
 * may list no operation this file does not produce); the pages outside the API (the dashboard's
 * paths, the reference); and every route of the REST table and every other path, asked for HTML
 * with ids that name nothing, so that an undocumented page is seen too.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restRoutes } from '@lfk/api';
import { linkTokenSentTo, PASSWORD, type RequestOptions, type Res, useTestServer, verificationTokenSentTo } from '@lfk/server/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_PATHS } from '../src/http/dashboard.ts';
import { everyCase } from './hostile-input/fixtures.ts';
import { UNKNOWN_IDS, urlOf } from './path-params.ts';

const dashboardDir = mkdtempSync(join(tmpdir(), 'lfk-dashboard-'));
writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>');
afterAll(() => rmSync(dashboardDir, { recursive: true, force: true }));

const t = useTestServer({}, { config: { dashboardDir } });

const FORM_POST = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };
const ORIGIN = 'https://site.example';

const isHtml = (res: Res) => /^text\/html/i.test(String(res.headers['content-type'] ?? ''));

/** A Content-Security-Policy as its directives: name → sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** What every HTML answer carries, whichever kind of page it is. */
function expectEveryPageHeaders(res: Res, what: string): Map<string, string[]> {
  const label = `${what} → ${res.status} ${JSON.stringify(res.headers)}`;
  expect(isHtml(res), label).toBe(true);
  expect(res.headers['x-frame-options'], label).toBe('DENY');
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  expect(res.headers['referrer-policy'], label).toBe('no-referrer');
  expect(res.headers['cross-origin-opener-policy'], label).toBe('same-origin');
  const csp = directives(String(res.headers['content-security-policy'] ?? ''));
  expect(csp.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(csp.get('base-uri'), label).toEqual(["'none'"]);
  const scripts = csp.get('script-src') ?? csp.get('default-src');
  expect(scripts, label).toBeDefined();
  expect(scripts, label).not.toContain("'unsafe-inline'");
  expect(scripts, label).not.toContain("'unsafe-eval'");
  expect(scripts, label).not.toContain('*');
  return csp;
}

/** One of lfk's own pages: nothing but its inline style sheet, allowed by that sheet's hash; kept by no cache. */
function expectOwnPageHeaders(res: Res, what: string): void {
  const csp = expectEveryPageHeaders(res, what);
  const label = `${what} → ${res.status} ${res.headers['content-security-policy']}`;
  expect(res.headers['cache-control'], label).toBe('no-store');
  expect(csp.get('default-src'), label).toEqual(["'none'"]);
  expect(csp.has('script-src'), label).toBe(false);
  expect(csp.get('form-action'), label).toEqual(["'self'"]);
  if (res.body === '') return; // HEAD
  const styles = [...res.body.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  expect(styles, label).toHaveLength(1);
  expect(csp.get('style-src'), label).toEqual(styles);
  expect(res.body, label).not.toMatch(/<script|\son\w+=|javascript:/i);
}

interface PageCase {
  what: string;
  method: string;
  /** The documented route it answers, as the OpenAPI document names it. */
  path: string;
  request: () => Promise<Res>;
  status: number;
}

/** A form, its verification link and a password reset link, for the cases to open. */
const world = {} as {
  formId: string;
  verifyToken: string;
  verifiedToken: string;
  resetToken: string;
  usedResetToken: string;
  email: string;
  stopToken: string;
};

beforeAll(async () => {
  const { owner, key } = await t.signupWithKey();
  world.email = owner.email;
  const form = await t.request('POST', '/v1/forms', {
    token: key,
    body: { name: 'Contact', schema: [{ name: 'email', type: 'email', required: true }], allowed_origins: [ORIGIN], notify_email: 'pages@example.com' },
  });
  world.formId = form.json.id;
  world.verifyToken = await verificationTokenSentTo(t, 'pages@example.com');
  const second = await t.request('POST', '/v1/forms', {
    token: key,
    body: { name: 'Other', schema: [{ name: 'email', type: 'email' }], notify_email: 'verified@example.com' },
  });
  expect(second.status).toBe(201);
  world.verifiedToken = await verificationTokenSentTo(t, 'verified@example.com');
  const replying = await t.request('POST', '/v1/forms', {
    token: key,
    body: { name: 'Replying', schema: [{ name: 'email', type: 'email' }], auto_reply: { email_field: 'email', subject: 'Thanks', text: 'Got it.' } },
  });
  expect((await t.request('POST', `/v1/forms/${replying.json.id}/submissions`, { token: key, body: { email: 'replied@example.com' } })).status).toBe(201);
  world.stopToken = await linkTokenSentTo(t, 'replied@example.com', 'auto_reply');
  for (const n of [1, 2]) {
    expect((await t.request('POST', '/v1/auth/password-resets', { body: { email: owner.email } })).status).toBe(202);
    if (n === 1) world.usedResetToken = await linkTokenSentTo(t, owner.email, 'password_reset', 1);
    else world.resetToken = await linkTokenSentTo(t, owner.email, 'password_reset', 2);
  }
});

const verification = '/v1/email-verifications/{token}';
const reset = '/v1/auth/password-resets/{token}';
const stop = '/v1/auto-reply-stops/{token}';
const submissions = '/v1/forms/{form_id}/submissions';
const unknownToken = (prefix: string) => `${prefix}_${'0'.repeat(43)}`;
const post = (url: string, raw: string, options: RequestOptions = {}) =>
  t.request('POST', url, { raw, ...options, headers: { ...FORM_POST, ...options.headers } });

/** Every HTML answer the OpenAPI document lists, produced for real: a page, and the error pages a person meets. */
const PAGES: PageCase[] = [
  {
    what: 'a verification link opened',
    method: 'get',
    path: verification,
    request: () => t.request('GET', `/v1/email-verifications/${world.verifyToken}`),
    status: 200,
  },
  {
    what: 'a verification link opened (HEAD)',
    method: 'get',
    path: verification,
    request: () => t.request('HEAD', `/v1/email-verifications/${world.verifyToken}`),
    status: 200,
  },
  {
    what: 'a verification link that names nothing',
    method: 'get',
    path: verification,
    request: () => t.request('GET', `/v1/email-verifications/${unknownToken('lfv')}`),
    status: 404,
  },
  {
    what: 'the Verify button pressed',
    method: 'post',
    path: verification,
    request: () => post(`/v1/email-verifications/${world.verifiedToken}`, ''),
    status: 200,
  },
  {
    what: 'the Verify button of a link that names nothing',
    method: 'post',
    path: verification,
    request: () => post(`/v1/email-verifications/${unknownToken('lfv')}`, ''),
    status: 404,
  },
  {
    what: 'the Verify button with a large body',
    method: 'post',
    path: verification,
    request: () => post(`/v1/email-verifications/${world.verifyToken}`, 'a='.padEnd(5000, 'a')),
    status: 413,
  },
  {
    what: 'the Verify button with a JSON body',
    method: 'post',
    path: verification,
    request: () => t.request('POST', `/v1/email-verifications/${world.verifyToken}`, { raw: '{}' }),
    status: 415,
  },
  { what: 'a stop link opened', method: 'get', path: stop, request: () => t.request('GET', `/v1/auto-reply-stops/${world.stopToken}`), status: 200 },
  {
    what: 'a stop link lfk did not make',
    method: 'get',
    path: stop,
    request: () => t.request('GET', `/v1/auto-reply-stops/${unknownToken('lfu')}`),
    status: 404,
  },
  {
    what: 'the Stop button pressed',
    method: 'post',
    path: stop,
    request: () => post(`/v1/auto-reply-stops/${world.stopToken}`, 'List-Unsubscribe=One-Click'),
    status: 200,
  },
  {
    what: 'the Stop button of a link lfk did not make',
    method: 'post',
    path: stop,
    request: () => post(`/v1/auto-reply-stops/${unknownToken('lfu')}`, ''),
    status: 404,
  },
  {
    what: 'the Stop button with a JSON body',
    method: 'post',
    path: stop,
    request: () => t.request('POST', `/v1/auto-reply-stops/${world.stopToken}`, { raw: '{}' }),
    status: 415,
  },
  { what: 'a reset link opened', method: 'get', path: reset, request: () => t.request('GET', `/v1/auth/password-resets/${world.resetToken}`), status: 200 },
  {
    what: 'a reset link opened (HEAD)',
    method: 'get',
    path: reset,
    request: () => t.request('HEAD', `/v1/auth/password-resets/${world.resetToken}`),
    status: 200,
  },
  {
    what: 'a reset link that no longer works',
    method: 'get',
    path: reset,
    request: () => t.request('GET', `/v1/auth/password-resets/${world.usedResetToken}`),
    status: 404,
  },
  {
    what: 'a reset form with a short password',
    method: 'post',
    path: reset,
    request: () => post(`/v1/auth/password-resets/${world.resetToken}`, 'password=short'),
    status: 400,
  },
  {
    what: 'a reset form of a link that names nothing',
    method: 'post',
    path: reset,
    request: () => post(`/v1/auth/password-resets/${unknownToken('lfr')}`, `password=${PASSWORD}`),
    status: 404,
  },
  {
    what: 'a reset form with a large body',
    method: 'post',
    path: reset,
    request: () => post(`/v1/auth/password-resets/${world.resetToken}`, `password=${'a'.repeat(20_000)}`),
    status: 413,
  },
  {
    what: 'a reset form posted',
    method: 'post',
    path: reset,
    request: () => post(`/v1/auth/password-resets/${world.resetToken}`, `password=${encodeURIComponent('a brand new long password')}`),
    status: 200,
  },
  {
    what: 'a form posted: thank you',
    method: 'post',
    path: submissions,
    request: () => post(`/v1/forms/${world.formId}/submissions`, 'email=a%40example.com', { headers: { origin: ORIGIN } }),
    status: 200,
  },
  {
    what: 'a form posted with a bad answer',
    method: 'post',
    path: submissions,
    request: () => post(`/v1/forms/${world.formId}/submissions`, 'email=nope', { headers: { origin: ORIGIN } }),
    status: 422,
  },
  {
    what: 'a form posted from another site',
    method: 'post',
    path: submissions,
    request: () => post(`/v1/forms/${world.formId}/submissions`, 'email=a%40example.com', { headers: { origin: 'https://elsewhere.example' } }),
    status: 403,
  },
  {
    what: 'a form posted to a form that is gone',
    method: 'post',
    path: submissions,
    request: () => post(`/v1/forms/${UNKNOWN_IDS.form_id}/submissions`, 'email=a%40example.com'),
    status: 404,
  },
];

describe('every HTML answer the API documents', () => {
  it('is produced here, a page and an error page for each operation', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).json;
    const resolve = (r: { $ref?: string }) => (r.$ref ? doc.components.responses[r.$ref.split('/').pop()!] : r);
    const documented = Object.entries<Record<string, { responses: Record<string, { $ref?: string }> }>>(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => Object.values(operation.responses ?? {}).some((r) => resolve(r).content?.['text/html']))
        .map(([method]) => `${method} ${path}`),
    );
    const produced = [...new Set(PAGES.map((p) => `${p.method} ${p.path}`))];
    expect(produced.sort()).toEqual(documented.sort());
    for (const operation of produced) {
      const statuses = PAGES.filter((p) => `${p.method} ${p.path}` === operation).map((p) => p.status);
      expect(statuses.some((s) => s === 200) && statuses.some((s) => s >= 400), operation).toBe(true);
    }
  });

  it("carries the pages' headers, success and error alike", async () => {
    await everyCase(PAGES, async (page) => {
      const res = await page.request();
      expect(res.status, `${page.what} → ${res.body.slice(0, 300)}`).toBe(page.status);
      expectOwnPageHeaders(res, page.what);
    });
  });
});

describe('pages outside the API', () => {
  it("the dashboard's paths and the API reference carry every page's headers, with their own policies", async () => {
    const paths = [...DASHBOARD_PATHS.map((p) => p.replace('*', unknownToken('lfi'))), '/docs'];
    await everyCase(paths, async (path) => {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(200);
      expectEveryPageHeaders(res, path);
      expect(res.headers['cache-control'], path).toBe('no-cache');
    });
  });
});

describe('every route, asked for HTML', () => {
  it('answers HTML only with the headers (REST routes with ids that name nothing, and every other path)', async () => {
    const requests = restRoutes.flatMap((route) => {
      const url = urlOf(route.path, { ...UNKNOWN_IDS, token: unknownToken(route.path.includes('password-resets') ? 'lfr' : 'lfv') });
      const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
      return methods.map((method) => [method, url] as const);
    });
    const others = ['/', '/docs', '/v1/openapi.json', '/healthz', '/readyz', '/trpc/auth.session', '/nope', '/v1/nope', '/assets/app.js'];
    requests.push(...others.flatMap((url) => (['GET', 'POST'] as const).map((method) => [method, url] as const)));
    let pages = 0;
    await everyCase(requests, async ([method, url]) => {
      const res = await t.request(
        method,
        url,
        method === 'GET' || method === 'HEAD' ? { headers: { accept: 'text/html' } } : { raw: 'a=b', headers: FORM_POST },
      );
      expect(res.status, `${method} ${url} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
      if (!isHtml(res)) return;
      pages++;
      expectEveryPageHeaders(res, `${method} ${url}`);
    });
    // The walk met the pages: the reset and verification links, the form post, the dashboard, the reference.
    expect(pages).toBeGreaterThanOrEqual(8);
  });
});

describe('in a real browser', () => {
  const CHROMIUM = process.env.LFK_CHROMIUM ?? '/usr/bin/chromium';
  const BROWSER_TIMEOUT_MS = 120_000;
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install Debian's chromium or point LFK_CHROMIUM at one`);
    base = await t.server.listen();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, BROWSER_TIMEOUT_MS);
  afterAll(() => browser?.close());

  it('a page is drawn with its style and breaks no rule of its policy; another page cannot frame it', { timeout: BROWSER_TIMEOUT_MS }, async () => {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    // Opening the link changes nothing.
    const link = `${base}/v1/email-verifications/${world.verifyToken}`;
    await tab.goto(link);
    await tab.getByRole('heading', { name: 'Verify your address' }).waitFor();
    // The inline style sheet applied: its hash is the one the policy allows.
    expect(await tab.evaluate('getComputedStyle(document.body).maxWidth')).toBe('576px');
    expect(problems).toEqual([]);

    // Framed by another page, it is not drawn: the frame holds the browser's error page, not the link's.
    await tab.setContent(`<iframe src="${link}" title="framed"></iframe>`);
    const frame = tab.frames().find((f) => f !== tab.mainFrame())!;
    await frame.waitForLoadState();
    expect(await frame.getByRole('heading', { name: 'Verify your address' }).count()).toBe(0);
    expect(frame.url()).toMatch(/^chrome-error:/);
    await tab.close();
  });
});
