/**
 * Hostile input: unknown routes, wrong methods and strange headers.
 */
import { describe, expect, it } from 'vitest';
import { expectDocumentedError } from '@lfk/server/testing';
import { everyCase, expectTrpcError, formId, key, keyId, owner, t, useWorld } from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// Routes, methods and headers.
// ---------------------------------------------------------------------------------------------

describe('unknown routes and wrong methods', () => {
  it('→ 404 not_found in the error shape, with x-request-id', async () => {
    const cases: [string, string][] = [
      ['GET', '/'],
      ['GET', '/v1'],
      ['GET', '/v1/nope'],
      ['POST', '/v1/nope'],
      ['GET', '/v2/forms'],
      ['GET', `/v1/forms/${formId}/nope`],
      ['PUT', `/v1/forms/${formId}`],
      ['POST', `/v1/forms/${formId}/submissions/export`],
      ['DELETE', '/v1/forms'],
      ['GET', '/v1/forms'],
      ['POST', '/v1/auth/session'],
      ['GET', '/v1/auth/login'],
      ['PUT', '/v1/workspaces'],
      ['PUT', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}`],
      ['GET', `/v1/workspaces/${owner.workspaceId}/api-keys/${keyId}/roll`],
      ['GET', `/v1/${'x'.repeat(5000)}`],
      ['GET', '/v1/%00'],
      ['GET', '/../../etc/passwd'],
    ];
    await everyCase(cases, async ([method, url]) => {
      const res = await t.request(method, url, { token: owner.token });
      expectDocumentedError(res, 404, 'not_found', `${method} ${url.slice(0, 60)}`);
    });
  });

  it('a URL that is not valid percent-encoding → 404 not_found in the error shape, on /v1 and /trpc', async () => {
    await everyCase(['/v1/nope%ZZ', '/v1/%E0%A4%A', '/%', '/trpc/forms.get%ZZ'], async (url) => {
      const res = await t.request('GET', url, { token: owner.token });
      if (url.startsWith('/trpc/')) expectTrpcError(res, 404, 'not_found', url);
      else expectDocumentedError(res, 404, 'not_found', url);
    });
  });

  it('a wrong method with a body is still a 404, not a body error', async () => {
    const res = await t.request('PUT', '/v1/forms', { token: key, raw: '{' });
    expectDocumentedError(res, 404, 'not_found');
  });
});

describe('headers', () => {
  it('a plain caller request id is echoed; a hostile one is replaced', async () => {
    const echoed = await t.request('GET', '/v1/forms/nope', { token: key, headers: { 'x-request-id': 'abc-123_X.y' } });
    expect(expectDocumentedError(echoed, 404, 'form_not_found').request_id).toBe('abc-123_X.y');
    await everyCase(['a b', 'x'.repeat(200), '<script>', 'a\tb', '"quoted"'], async (hostile) => {
      const res = await t.request('GET', '/v1/forms/nope', { token: key, headers: { 'x-request-id': hostile } });
      const error = expectDocumentedError(res, 404, 'form_not_found', hostile);
      expect(error.request_id).not.toBe(hostile);
      expect(error.request_id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    });
  });

  it('garbage Authorization headers → 401 invalid_api_key, never a 500', async () => {
    await everyCase(
      ['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer a b', `Bearer ${'x'.repeat(8000)}`, 'Bearer lfs_', 'Bearer lfk_\u00e9'],
      async (authorization) => {
        const res = await t.request('GET', `/v1/forms/${formId}`, { headers: { authorization } });
        expect(res.status, `${authorization.slice(0, 30)} ${res.body}`).toBe(401);
        expectDocumentedError(res, 401, authorization.startsWith('Bearer lfs_') ? 'invalid_session' : 'invalid_api_key', authorization.slice(0, 30));
      },
    );
  });

  it('a session cookie with garbage is refused, not a 500', async () => {
    await everyCase(['lfk_session=', 'lfk_session=%00', `lfk_session=${'x'.repeat(4000)}`, 'lfk_session=lfs_nope'], async (cookie) => {
      const res = await t.request('GET', '/v1/auth/session', { headers: { cookie } });
      expectDocumentedError(res, 401, 'invalid_session', cookie.slice(0, 30));
    });
  });
});
