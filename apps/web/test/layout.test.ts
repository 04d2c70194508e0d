/**
 * The dashboard's layout holds against what people and key holders type: a long unbroken form
 * name, field label or key name never makes a phone page wider than the phone; on a desktop the
 * keys table keeps an email on one line and a row's buttons side by side; the header leaves a phone
 * most of its screen.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { DESKTOP, describeInBrowser, PHONE, see, sessionOf, signUpInBrowser, useDashboard, workspaceOf, newEmail } from './fixtures.ts';
import { submit } from '@lfk/server/testing';

const LONG = 'W'.repeat(200);

describeInBrowser('the layout', () => {
  const d = useDashboard();

  /** How much wider than the window the page is (0: it fits). */
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  it('long unbroken names and labels never widen a page, on a phone or a desktop', async () => {
    const page = await d.newPage(PHONE);
    const email = newEmail('long');
    await signUpInBrowser(page, email);
    await d.confirmAddress(email);
    const token = await sessionOf(page);
    const workspaceId = workspaceOf(page);
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${d.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (res) => ({ status: res.status, json: await res.json() }));
    const form = await api('POST', '/v1/forms', {
      workspace_id: workspaceId,
      name: LONG,
      schema: [{ name: 'message', type: 'text', label: LONG.toLowerCase(), required: true }],
      allowed_origins: ['https://example.com'],
    });
    expect(form.status).toBe(201);
    expect((await submit(d.t, form.json.id, { message: 'x'.repeat(500) }, { origin: 'https://example.com' })).status).toBe(201);
    expect((await api('POST', `/v1/workspaces/${workspaceId}/api-keys`, { name: 'K'.repeat(64) })).status).toBe(201);

    const pages: [string, string][] = [
      [`/w/${workspaceId}/forms`, 'Forms'],
      [`/w/${workspaceId}/forms/${form.json.id}`, LONG],
      [`/w/${workspaceId}/forms/${form.json.id}/submissions`, 'Submissions'],
      [`/w/${workspaceId}/keys`, 'API keys'],
      [`/w/${workspaceId}/audit`, 'Audit log'],
    ];
    for (const [viewport, [path, heading]] of [PHONE, DESKTOP].flatMap((v) => pages.map((p) => [v, p] as const))) {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await see(page.getByRole('heading', { level: 1, name: heading }));
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .slice(0, 8)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
      );
      expect(await overflow(page), `${viewport.width} px, ${path}: ${wide.join(' ')}`).toBe(0);
    }
  });

  it('on a desktop, the keys table keeps an email on one line and Roll and Revoke side by side', async () => {
    const page = await d.newPage(DESKTOP);
    const email = newEmail('a-rather-long-address-for-a-person');
    await signUpInBrowser(page, email);
    await d.confirmAddress(email);
    const token = await sessionOf(page);
    const workspaceId = workspaceOf(page);
    const res = await fetch(`${d.url}/v1/workspaces/${workspaceId}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'deploy bot' }),
    });
    expect(res.status).toBe(201);
    await page.goto(`/w/${workspaceId}/keys`);
    const row = page.getByRole('row').filter({ hasText: 'deploy bot' });
    await see(row);
    // The address is laid out on one line: the rectangles of its own text are one.
    const lines = await row.evaluate((tr, address) => {
      const walker = document.createTreeWalker(tr, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf(address) ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + address.length);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }
      return -1;
    }, email);
    expect(lines).toBe(1);
    const roll = await row.getByRole('button', { name: /^Roll/ }).boundingBox();
    const revoke = await row.getByRole('button', { name: /^Revoke/ }).boundingBox();
    expect(Math.abs(roll!.y - revoke!.y)).toBeLessThan(2);
    expect(await overflow(page)).toBe(0);
  });

  it('a signed-out visit asks nothing it would be refused: no 401, nothing in the console', async () => {
    const page = await d.newPage(DESKTOP);
    const refused: string[] = [];
    const errors: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 401) refused.push(res.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    for (const path of ['/', '/w/ws_00000000000000000000000000/forms', '/invitations/lfi_unknown']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    await page.goto('/');
    await see(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    expect(refused).toEqual([]);
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });

  it('on a phone, the header takes little of the screen', async () => {
    const page = await d.newPage(PHONE);
    await signUpInBrowser(page, newEmail('header'));
    const header = await page.getByRole('banner').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(120);
    // The API reference is a link away, from every signed-in page.
    expect(await page.getByRole('banner').getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs');
    expect(await overflow(page)).toBe(0);
  });
});
