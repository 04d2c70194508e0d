import { existsSync } from 'node:fs';
import { useTestServer } from '@lfk/server/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const t = useTestServer();
/** Debian's chromium, as the dashboard's browser tests use it (`LFK_CHROMIUM` to use another). */
const CHROMIUM = process.env.LFK_CHROMIUM ?? '/usr/bin/chromium';
const INSTALL_HINT = "install Debian's chromium (apt-get install -y chromium) or point LFK_CHROMIUM at a Chromium or Chrome binary";
const BROWSER_TIMEOUT_MS = 120_000;

describe('/docs, the API reference for people', () => {
  it('is a page under a strict CSP, whose only script is served here and cached for good', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(page.body).toContain('<redoc spec-url="v1/openapi.json"></redoc>');
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(page.body).not.toMatch(/<script>|<style|https?:\/\//);
    expect(page.body).toContain('<link rel="icon" href="data:,">');
    const script = await t.request('GET', `/${scripts[0]}`);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.headers['cache-control']).toContain('immutable');
    expect(script.body.length).toBeGreaterThan(100_000);
  });

  describe('in a real browser', () => {
    let browser: Browser;
    let base: string;
    beforeAll(async () => {
      if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: ${INSTALL_HINT}`);
      base = await t.server.listen();
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    }, BROWSER_TIMEOUT_MS);
    afterAll(() => browser?.close());

    it('draws every operation from the document, breaking no CSP rule and asking nothing of another site', { timeout: BROWSER_TIMEOUT_MS }, async () => {
      const tab = await browser.newPage();
      const problems: string[] = [];
      const elsewhere: string[] = [];
      tab.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      tab.on('pageerror', (error) => problems.push(error.message));
      tab.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(base) && !url.startsWith('blob:') && !url.startsWith('data:')) elsewhere.push(url);
      });
      const doc = (await t.request('GET', '/v1/openapi.json')).json;
      await tab.goto(`${base}/docs`);
      await tab.getByRole('heading', { name: 'lfk API (v1)', level: 1 }).waitFor({ timeout: BROWSER_TIMEOUT_MS });
      // Every operation is drawn, by its summary, in the document's order.
      const summaries = Object.values(doc.paths).flatMap((ops) => Object.values(ops as Record<string, { summary: string }>).map((op) => op.summary));
      await tab.locator('h2', { hasText: summaries.at(-1)! }).waitFor({ timeout: BROWSER_TIMEOUT_MS });
      expect(await tab.locator('h2').allInnerTexts()).toEqual(expect.arrayContaining(summaries));
      expect(problems).toEqual([]);
      expect(elsewhere).toEqual([]);
    });
  });
});
