/**
 * Issue 41 in a real Chromium, from the visitor's side: the two snippets the dashboard hands out,
 * pasted into a page served from another origin. The plain form, refused, lands on lfk's page,
 * which names the field by its label and leads back; the form with lfk's browser kit says what is
 * wrong beside the field, then "Thank you", without leaving the page.
 */
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, see, sessionOf, useDashboard } from './fixtures.ts';

describeInBrowser('the pages a visitor meets', () => {
  const d = useDashboard();
  let site: Server;
  let siteOrigin: string;
  /** The page the site serves: whatever the test last pasted in. */
  let pasted = '';

  beforeAll(async () => {
    site = createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html lang="en"><head><title>Contact us</title></head><body><main><h1>Contact us</h1>${pasted}</main></body></html>`),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const address = site.address();
    siteOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

  /** A form on the site's origin, made in the dashboard's workspace, and its page open there. */
  async function formPage(): Promise<{ page: Page; formId: string }> {
    const { page } = await d.ownerPage();
    const workspaceId = /\/w\/(ws_[0-9A-Za-z]+)/.exec(page.url())![1]!;
    const token = await sessionOf(page);
    const created = await d.t.request('POST', '/v1/forms', {
      token,
      body: {
        name: 'Contact',
        workspace_id: workspaceId,
        allowed_origins: [siteOrigin],
        schema: [
          { name: 'email', type: 'email', required: true, label: 'Your email' },
          { name: 'phone', type: 'tel', label: 'Phone number' },
        ],
      },
    });
    expect(created.status, created.body).toBe(201);
    await page.goto(`/w/${workspaceId}/forms/${created.json.id}`);
    return { page, formId: created.json.id };
  }

  const snippetOf = async (page: Page, title: string) => (await page.getByRole('figure').filter({ hasText: title }).locator('code').textContent())!;

  it('the plain form, refused, shows lfk’s page with the field’s label and a way back to the page it was on', async () => {
    const { page } = await formPage();
    pasted = await snippetOf(page, 'HTML form');
    const visitor = await d.newPage();
    await visitor.goto(`${siteOrigin}/contact`);
    await visitor.getByLabel('Your email').fill('ada@example.com');
    // The browser does not check a telephone number: lfk does.
    await visitor.getByLabel('Phone number').fill('call me');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await see(visitor.getByRole('heading', { name: 'Please check your answers' }));
    await see(visitor.getByText('Phone number: Must be a telephone number.'));
    await expectAccessible(visitor, 'visitor-error-page');
    // Chromium tells another site only the origin a post came from: the way back leads to its home.
    await visitor.getByRole('link', { name: `Back to ${new URL(siteOrigin).host}` }).click();
    await see(visitor.getByRole('heading', { name: 'Contact us' }));
    expect(visitor.url()).toBe(`${siteOrigin}/`);
  });

  it('the form that stays on the page (the browser kit’s tag) shows the problem beside its field, then thanks the visitor in place', async () => {
    const { page, formId } = await formPage();
    pasted = await snippetOf(page, 'Form that stays on the page');
    expect(pasted).toMatch(/^<script src="[^"]+\/v1\/kit\/lfk-[^"]+\.js" integrity="sha384-[^"]+" crossorigin="anonymous" defer><\/script>\n<form /);
    const visitor = await d.newPage();
    await visitor.goto(`${siteOrigin}/contact`);
    await visitor.getByLabel('Your email').fill('ada@example.com');
    await visitor.getByLabel('Phone number').fill('call me');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await see(visitor.getByRole('status').getByText('Please check your answers.'));
    await see(visitor.getByText('Must be a telephone number.'));
    await visitor.getByLabel('Phone number').fill('+44 20 7946 0958');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await see(visitor.getByRole('status').getByText('Thank you: your answers were sent.'));
    await expect.poll(() => visitor.getByText('Must be a telephone number.').count()).toBe(0);
    expect(visitor.url()).toBe(`${siteOrigin}/contact`);
    expect(await d.t.count('submissions where form_id = ?', [formId])).toBe(1);
  });
});
