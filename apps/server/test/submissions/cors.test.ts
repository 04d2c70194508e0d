/**
 * Submissions end to end: CORS preflights and grants.
 */
import { newId } from '@lfk/db';
import { describe, expect, it } from 'vitest';
import { expectError, ORIGIN } from '@lfk/server/testing';
import {
  contactSchema,
  corsHeaderNames,
  countRows,
  createForm,
  expectCreated,
  headerList,
  LOCAL_ORIGIN,
  ownerKey,
  storedRows,
  submit,
  t,
  useWorld,
} from './fixtures.ts';

useWorld();

describe('CORS', () => {
  const preflightHeaders = (origin: string) => ({
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  });

  it('answers a preflight from an allowed origin with 204 and the CORS grant', async () => {
    const form = await createForm();
    for (const origin of [ORIGIN, LOCAL_ORIGIN]) {
      const res = await t.request('OPTIONS', `/v1/forms/${form.id}/submissions`, { headers: preflightHeaders(origin) });
      expect(res.status, res.body).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(headerList(res, 'access-control-allow-methods')).toContain('post');
      expect(headerList(res, 'access-control-allow-headers')).toContain('content-type');
      // Never a credentialed grant: a key is for servers, never browsers.
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('refuses a preflight from another origin (or none) with 403 and no CORS headers', async () => {
    const form = await createForm();
    for (const origin of ['https://evil.example', 'null', 'https://shop.example:8443', 'https://shop.example/']) {
      const res = await t.request('OPTIONS', `/v1/forms/${form.id}/submissions`, { headers: preflightHeaders(origin) });
      expectError(res, 403, 'origin_not_allowed');
      expect(corsHeaderNames(res), origin).toEqual([]);
    }
    const noOrigin = await t.request('OPTIONS', `/v1/forms/${form.id}/submissions`, {
      headers: { 'access-control-request-method': 'POST' },
    });
    expectError(noOrigin, 403, 'origin_not_allowed');
    expect(corsHeaderNames(noOrigin)).toEqual([]);
  });

  it('refuses preflights for api_key-mode forms, and answers 404 for unknown forms', async () => {
    const keyed = await t.request('POST', '/v1/forms', {
      token: ownerKey.key,
      body: { name: 'Server only', schema: contactSchema, submission_mode: 'api_key', allowed_origins: [ORIGIN] },
    });
    expect(keyed.status, keyed.body).toBe(201);
    expect(keyed.json.submission_mode).toBe('api_key');
    const res = await t.request('OPTIONS', `/v1/forms/${keyed.json.id}/submissions`, { headers: preflightHeaders(ORIGIN) });
    expectError(res, 403, 'origin_not_allowed');
    expect(corsHeaderNames(res)).toEqual([]);

    for (const formId of [newId('form'), 'nope']) {
      const unknown = await t.request('OPTIONS', `/v1/forms/${formId}/submissions`, { headers: preflightHeaders(ORIGIN) });
      expectError(unknown, 404, 'form_not_found');
      expect(corsHeaderNames(unknown)).toEqual([]);
    }
  });

  it('actual POSTs from an allowed origin carry allow-origin and Vary: Origin, on success and on a 422', async () => {
    const form = await createForm();
    const ok = await submit(form.id, { name: 'Ada', email: 'ada@example.com' }, { origin: ORIGIN });
    expectCreated(ok, form.id);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(headerList(ok, 'vary')).toContain('origin');

    const bad = await submit(form.id, { name: 'Ada', email: 'not-an-email' }, { origin: LOCAL_ORIGIN });
    expectError(bad, 422, 'validation_failed');
    expect(bad.headers['access-control-allow-origin']).toBe(LOCAL_ORIGIN);
    expect(headerList(bad, 'vary')).toContain('origin');

    const other = await submit(form.id, { name: 'Eve', email: 'eve@example.com' }, { origin: 'https://evil.example' });
    expectError(other, 403, 'origin_not_allowed');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(corsHeaderNames(other)).toEqual([]);
    expect(await countRows(form.id)).toBe(1);
  });

  it('a key-authenticated POST carries no CORS headers, even with an allowed Origin', async () => {
    const form = await createForm();
    const res = await submit(form.id, { name: 'Bot', email: 'bot@example.com' }, { origin: ORIGIN, key: ownerKey.key });
    expectCreated(res, form.id);
    expect(corsHeaderNames(res)).toEqual([]);
    const withoutOrigin = await submit(form.id, { name: 'Bot', email: 'bot@example.com' }, { key: ownerKey.key });
    expectCreated(withoutOrigin, form.id);
    expect(corsHeaderNames(withoutOrigin)).toEqual([]);
    const rows = await storedRows(form.id);
    expect(rows.map((r) => [r.source, r.api_key_id])).toEqual([
      ['api_key', ownerKey.id],
      ['api_key', ownerKey.id],
    ]);
  });
});
