/**
 * Issue 41 in a real Chromium, from the visitor's side: the two snippets the dashboard hands out,
 * pasted into a page served from another origin. The plain form, refused, lands on lfk's page,
 * which names the field by its label and leads back; the form with lfk's browser kit says what is
 * wrong beside the field, then "Thank you", without leaving the page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSiteForm, describeInBrowser, expectAccessible, type Site, see, sessionOf, startSite, useDashboard, workspaceOf } from './fixtures.ts';

describeInBrowser('the pages a visitor meets', () => {
  const d = useDashboard();
  let site: Site;
  let siteOrigin: string;
  /** The page the site serves: whatever the test last pasted in. */
  let pasted = '';

  beforeAll(async () => {
    site = await startSite((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html lang="en"><head><title>Contact us</title></head><body><main><h1>Contact us</h1>${pasted}</main></body></html>`),
    );
    siteOrigin = site.origin;
  });
  afterAll(() => site.close());

  /** A form on the site's origin, made in the dashboard's workspace, and its page open there. */
  async function formPage(): Promise<{ page: Page; formId: string }> {
    const { page } = await d.ownerPage();
    const workspaceId = workspaceOf(page);
    const formId = await createSiteForm(d.t, { token: await sessionOf(page), workspaceId }, siteOrigin, { withFile: false });
    await page.goto(`/w/${workspaceId}/forms/${formId}`);
    return { page, formId };
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
