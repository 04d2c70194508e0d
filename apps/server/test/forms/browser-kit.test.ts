/**
 * `/v1/kit/`: the browser kit (`@lfk/browser`) served by lfk to any site, from a build the server
 * reads at start (a stand-in here; apps/web/test/kit.test.ts runs the real one in Chromium).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError, useTestServer } from '@lfk/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conformance } from '../openapi/conformance.ts';

const SOURCE = 'window.lfk={enhance(){return false}};';
const VERSION = '0.1.0-0123456789';
const kitDir = mkdtempSync(join(tmpdir(), 'lfk-kit-'));
writeFileSync(join(kitDir, 'lfk.js'), SOURCE);
writeFileSync(join(kitDir, 'kit.json'), JSON.stringify({ version: VERSION, integrity: 'sha384-not-read', inputsHash: 'x' }));
afterAll(() => rmSync(kitDir, { recursive: true, force: true }));

const INTEGRITY = `sha384-${createHash('sha384').update(SOURCE).digest('base64')}`;

describe('a server with the kit built', () => {
  const t = useTestServer({ LFK_PUBLIC_URL: 'https://forms.example.net' }, { config: { kitDir } });
  let check: Conformance;
  beforeAll(async () => {
    check = new Conformance((await t.request('GET', '/v1/openapi.json')).json);
  });

  it('names its version, its integrity hash (of the bytes served) and the tag that loads it', async () => {
    const res = await t.request('GET', '/v1/kit');
    check.expectConforms('GET', '/v1/kit', res);
    const src = `https://forms.example.net/v1/kit/lfk-${VERSION}.js`;
    expect(res.json).toEqual({
      version: VERSION,
      src,
      integrity: INTEGRITY,
      script_tag: `<script src="${src}" integrity="${INTEGRITY}" crossorigin="anonymous" defer></script>`,
    });
  });

  it('serves the version for good and the newest for 5 minutes, to any site, as a script', async () => {
    const pinned = await t.request('GET', `/v1/kit/lfk-${VERSION}.js`, { headers: { origin: 'https://example.com' } });
    check.expectConforms('GET', '/v1/kit/lfk-{version}.js', pinned);
    expect(pinned.body).toBe(SOURCE);
    expect(pinned.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      etag: `"${VERSION}"`,
    });
    const latest = await t.request('GET', '/v1/kit/lfk.js');
    check.expectConforms('GET', '/v1/kit/lfk.js', latest);
    expect(latest.body).toBe(SOURCE);
    expect(latest.headers['cache-control']).toBe('public, max-age=300');
    const again = await t.request('GET', '/v1/kit/lfk.js', { headers: { 'if-none-match': `"${VERSION}"` } });
    check.expectConforms('GET', '/v1/kit/lfk.js', again);
    expect(again.status).toBe(304);
  });

  it('compressed as the browser accepts it', async () => {
    const url = await t.server.listen();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${url}/v1/kit/lfk.js`, { headers: { 'accept-encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(await res.text()).toBe(SOURCE);
    }
  });

  it('another version is a 404', async () => {
    const res = await t.request('GET', '/v1/kit/lfk-0.0.1-aaaaaaaaaa.js');
    check.expectConforms('GET', '/v1/kit/lfk-{version}.js', res);
    expectError(res, 404, 'not_found');
  });
});

describe('a server without a build of the kit', () => {
  const t = useTestServer();

  it('answers 404 for each of its paths, and serves the rest', async () => {
    for (const path of ['/v1/kit', '/v1/kit/lfk.js', `/v1/kit/lfk-${VERSION}.js`]) expectError(await t.request('GET', path), 404, 'not_found');
    expect((await t.request('GET', '/healthz')).status).toBe(200);
  });
});
