/**
 * Hostile input: verification link posts, forged Host headers, secrets written strangely in URLs.
 */
import { describe, expect, it } from 'vitest';
import { expectDocumentedError, type Res, type RequestOptions } from '@lfk/server/testing';
import { badIds, everyCase, keyId, owner, t, useWorld } from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Verification link posts, forged Host headers, secrets written strangely in URLs
// ---------------------------------------------------------------------------------------------

describe('verification link posts, forged hosts, strangely written secrets', () => {
  const pageCode = (res: Res) => /<meta name="lfk-error-code" content="([a-z_]+)">/.exec(res.body)?.[1];

  it('a verification link posted or probed with a token of the wrong shape → a 404 page, never a 500', async () => {
    await everyCase([...badIds(keyId), ['an unknown token', `lfv_${'A'.repeat(43)}`] as [string, string]], async ([what, token]) => {
      for (const method of ['POST', 'HEAD']) {
        const res = await t.request(method, `/v1/email-verifications/${token}`);
        expect(res.status, `${method} ${what}`).toBe(404);
        expect(res.headers['content-type'], `${method} ${what}`).toMatch(/^text\/html/);
        if (method === 'POST') expect(pageCode(res), what).toBe('not_found');
      }
    });
  });

  it('a verification post with a body that is not a form post, or too big → 415 / 413 pages', async () => {
    const url = `/v1/email-verifications/lfv_${'A'.repeat(43)}`;
    const cases: [string, RequestOptions, number, string][] = [
      ['text/plain', { raw: 'verify', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
      ['multipart', { raw: '--x--', headers: { 'content-type': 'multipart/form-data; boundary=x' } }, 415, 'unsupported_media_type'],
      ['2 KiB form', { raw: `a=${'x'.repeat(2048)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 413, 'payload_too_large'],
      ['JSON', { raw: '{"a":', headers: { 'content-type': 'application/json' } }, 415, 'unsupported_media_type'],
    ];
    await everyCase(cases, async ([what, options, status, code]) => {
      const res = await t.request('POST', url, options);
      expect(res.status, what).toBe(status);
      expect(res.headers['content-type'], what).toMatch(/^text\/html/);
      expect(pageCode(res), what).toBe(code);
      expect(res.headers['x-request-id'], what).toEqual(expect.any(String));
    });
  });

  it('a cookie state change with a hostile Host header → 403 csrf_failed, never a 500', async () => {
    const hosts = ['evil.example', 'lfk.test.evil.example', 'lfk.test:80@evil.example', '[::1]', 'localhost', '127.0.0.1:80', 'LFK.TEST', ''];
    await everyCase(hosts, async (host) => {
      const res = await t.request('POST', '/v1/workspaces', {
        headers: { cookie: `lfk_session=${owner.token}`, host, origin: `http://${host}` },
        body: { name: 'forged' },
      });
      expectDocumentedError(res, 403, 'csrf_failed', `Host ${JSON.stringify(host)}`);
    });
  });

  it('URLs with broken or nested escapes around a secret prefix → a 4xx in the error shape, never a 500', async () => {
    const urls = [
      '/v1/nowhere/lfk%5',
      '/v1/nowhere/lfk%255',
      '/v1/nowhere/%5Cu006',
      '/v1/nowhere/lfk_%',
      '/v1/nowhere/%25%25%25lfk_',
      `/v1/nowhere/${'%25'.repeat(2000)}5F`,
      `/v1/nowhere/${'lfk_'.repeat(2000)}`,
      '/trpc/forms.get?input=%22%5Cu006',
    ];
    await everyCase(urls, async (url) => {
      const res = await t.request('GET', url, { token: owner.token });
      expect(res.status, url.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(res.status, url.slice(0, 60)).toBeLessThan(500);
      expect(res.json?.error, url.slice(0, 60)).toBeDefined();
    });
  });
});
