/**
 * Issue 53's `@lfk/react` in a real Chromium: the owner's page is rendered on the site's server
 * (react-dom/server, with the form's description read there by `fetchPublicForm`), so its first
 * HTML is a form that posts; then React hydrates it with no mismatch, and the form is sent in
 * place, each refused field's message beside its input.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchPublicForm } from '@lfk/react';
import { reactFormSnippet } from '@lfk/client';
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { build } from 'rolldown';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { App, type AppProps } from './react-site/app.tsx';
import {
  createSiteForm,
  describeInBrowser,
  eventually,
  expectAccessible,
  focused,
  type Site,
  see,
  sendRefusedPhone,
  startSite,
  useDashboard,
} from './fixtures.ts';

describeInBrowser('@lfk/react on an owner’s page', () => {
  const d = useDashboard();
  let site: Site;
  let siteOrigin: string;
  let bundleDir: string;
  let bundle: string;
  let props: AppProps;

  beforeAll(async () => {
    // The page's script: React, the app and @lfk/react (from its sources), as a bundler makes it.
    bundleDir = await mkdtemp(join(tmpdir(), 'lfk-react-site-'));
    await build({
      input: join(import.meta.dirname, 'react-site/browser.tsx'),
      platform: 'browser',
      logLevel: 'warn',
      resolve: { conditionNames: ['lfk-source', 'browser', 'import', 'default'] },
      transform: { define: { 'process.env.NODE_ENV': '"development"' }, jsx: { runtime: 'automatic' } },
      output: { file: join(bundleDir, 'app.js'), format: 'esm' },
    });
    bundle = await readFile(join(bundleDir, 'app.js'), 'utf8');
    site = await startSite((request, response) => {
      if (request.url === '/app.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      if (request.url !== '/contact') return void response.writeHead(404).end();
      // Rendered here, on the server, as a framework would.
      const html = renderToString(createElement(App, props));
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact us</title></head><body><div id="root">${html}</div>` +
            `<script type="application/json" id="props">${JSON.stringify(props).replace(/</g, '\\u003c')}</script>` +
            '<script type="module" src="/app.js"></script></body></html>',
        );
    });
    siteOrigin = site.origin;
    const formId = await createSiteForm(d.t, await d.t.signup(), siteOrigin);
    props = { baseUrl: d.url, formId, description: await fetchPublicForm(d.url, formId) };
  });
  afterAll(async () => {
    await site.close();
    await rm(bundleDir, { recursive: true, force: true });
  });

  const count = () => d.t.count('submissions where form_id = ?', [props.formId]);

  it('renders a form that posts on the server, hydrates it without a mismatch, and sends it in place', async () => {
    // The first HTML, before any script: a real form, each field with its label and lfk's limits.
    const first = await (await fetch(`${siteOrigin}/contact`)).text();
    expect(first).toContain(`action="${d.url}/v1/forms/${props.formId}/submissions"`);
    // (HTML's attribute names know no case: React writes some as it names them, `encType`.)
    expect(first).toMatch(/enctype="multipart\/form-data"/i);
    expect(first).toMatch(/<input type="email"[^>]*required=""[^>]*name="email"/);
    expect(await fetchPublicForm(d.url, 'form_00000000000000000000000000')).toBeNull();

    const page = await d.newPage();
    const problems: string[] = [];
    // React's warnings (a hydration mismatch above all); not the browser's note of the 422 it was answered, or of a missing favicon.
    page.on('console', (message) => {
      const serious = message.type() === 'error' || message.type() === 'warning';
      if (serious && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${siteOrigin}/contact`);
    await eventually(() => page.evaluate(() => (window as { hydrated?: boolean }).hydrated === true)).toBe(true);
    const phone = await sendRefusedPhone(page, 'Your phone');
    await expectAccessible(page, 'react-errors');
    expect(await count()).toBe(0);

    await phone.fill('+44 20 7946 0958');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByText('Got it: we answer within a day.'));
    expect(await focused(page.getByRole('status'))).toBe(true);
    expect(page.url()).toBe(`${siteOrigin}/contact`);
    await expectAccessible(page, 'react-success');
    expect(await count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('without JavaScript the server-rendered form still posts, and lands on lfk’s thank-you page', async () => {
    const before = await count();
    const page = await d.newPage();
    await page.context().route(`${siteOrigin}/app.js`, (route) => route.abort());
    await page.goto(`${siteOrigin}/contact`);
    await page.getByLabel('Your email').fill('grace@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await see(page.getByRole('heading', { name: 'Thank you' }));
    expect(await count()).toBe(before + 1);
  });

  it('the dashboard’s React snippet, as pasted into an app, renders this form', async () => {
    const file = join(bundleDir, 'contact-form.jsx');
    await writeFile(file, reactFormSnippet({ id: props.formId }, d.url));
    const webDir = join(import.meta.dirname, '..');
    await build({
      input: file,
      platform: 'node',
      logLevel: 'warn',
      external: ['react', 'react/jsx-runtime', 'react-dom/server'],
      resolve: { alias: { '@lfk/react': join(webDir, '../../packages/react/src/index.ts') }, conditionNames: ['lfk-source', 'import', 'default'] },
      transform: { jsx: { runtime: 'automatic' } },
      output: { file: join(bundleDir, 'contact-form.js'), format: 'esm' },
    });
    // Its `react` is this app's, as vitest resolves it.
    const { ContactForm } = (await import(join(bundleDir, 'contact-form.js'))) as { ContactForm: (p: { description: unknown }) => ReactElement };
    const html = renderToString(createElement(ContactForm, { description: props.description }));
    expect(html).toContain(`action="${d.url}/v1/forms/${props.formId}/submissions"`);
    expect(html).toMatch(/<input type="email"[^>]*name="email"/);
  });
});
