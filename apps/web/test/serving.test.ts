/**
 * How the server serves the built dashboard (no browser needed): the app's page at its paths and
 * on reload of a deep link, with a strict CSP; hashed assets cached for good; every API route,
 * and every unknown path, answered as before.
 */
import { readdir } from 'node:fs/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_DIST, isDashboardBuildCurrent } from '../scripts/dashboard-build.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({}, { config: { dashboardDir: DASHBOARD_DIST } });
});
afterAll(() => t?.close());

describe('the dashboard, served', () => {
  it('the build the tests serve is current with its sources (global setup built it only if not)', async () => {
    expect(await isDashboardBuildCurrent()).toBe(true);
  });

  it("the app served is React's production build, though the tests built it (vitest sets NODE_ENV=test)", async () => {
    expect(process.env.NODE_ENV).toBe('test');
    const scripts = (await readdir(join(DASHBOARD_DIST, 'assets'))).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      // A sentence only React's development build carries.
      expect((await t.request('GET', `/assets/${script}`)).body).not.toContain('Invalid hook call');
    }
  });

  it.each(['/', '/sign-in', '/sign-up', '/device', '/w/ws_0123456789/keys', '/w/ws_x/forms/form_y/submissions'])(
    'GET %s → the app page, with a CSP allowing only its own scripts',
    async (path) => {
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root"></div>');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('its scripts and styles are served from /assets with long-lived caching, each named by the page or a script it loads', async () => {
    const assets = (await readdir(join(DASHBOARD_DIST, 'assets'))).filter((name) => !/\.(br|gz)$/.test(name));
    const page = await t.request('GET', '/');
    const served: string[] = [page.body];
    for (const asset of assets) {
      const res = await t.request('GET', `/assets/${asset}`);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      served.push(res.body);
    }
    // The code is split by page: the page names the first chunks, and they name the rest.
    expect(assets.filter((name) => name.endsWith('.js')).length).toBeGreaterThan(10);
    for (const asset of assets)
      expect(
        served.some((text) => text.includes(`/assets/${asset}`) || text.includes(`./${asset}`)),
        asset,
      ).toBe(true);
    // No inline script: everything the CSP has to allow is a file of our own.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('sends Brotli or gzip to a browser that takes it, the same bytes once decoded, and the plain file to one that does not', async () => {
    const assets = (await readdir(join(DASHBOARD_DIST, 'assets'))).filter((name) => /\.(js|css)$/.test(name));
    for (const asset of assets) {
      const get = (encoding?: string) =>
        t.server.app.inject({ method: 'GET', url: `/assets/${asset}`, headers: encoding ? { 'accept-encoding': encoding } : {} });
      const plain = await get();
      expect(plain.headers['content-encoding']).toBeUndefined();
      const br = await get('gzip, deflate, br');
      expect(br.headers['content-encoding'], asset).toBe('br');
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload), asset).toBe(true);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      const gz = await get('gzip');
      expect(gz.headers['content-encoding'], asset).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload), asset).toBe(true);
    }
    // The copies are not files of their own.
    const copy = await t.request('GET', `/assets/${assets[0]}.br`);
    expect(copy.status).toBe(404);
  });

  it.each([
    ['GET', '/v1/nope'],
    ['GET', '/v1/w/ws_x/keys'],
    ['GET', '/nope'],
    ['GET', '/assets/nope.js'],
    ['GET', '/index.html'],
    ['GET', '/.build-stamp.json'],
    ['POST', '/w/ws_x/keys'],
  ])('%s %s → the API’s JSON 404, never the app', async (method, path) => {
    const res = await t.request(method, path);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
  });

  it('the API routes answer as before', async () => {
    expect((await t.request('GET', '/healthz')).json).toEqual({ status: 'ok' });
    expect((await t.request('GET', '/readyz')).status).toBe(200);
    expect((await t.request('GET', '/v1/openapi.json')).json.openapi).toBeDefined();
    expect((await t.request('GET', '/v1/auth/session')).json.error.code).toBe('unauthenticated');
    expect((await t.request('GET', '/trpc/auth.session')).status).toBe(401);
  });
});
