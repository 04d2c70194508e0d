/**
 * Hostile input: the submission path's limits hold on every door, and nothing after a stored submission fails.
 */
import { describe, expect, it } from 'vitest';
import { countSubmissions, expectDocumentedError } from '@lfk/server/testing';
import { expectTrpcError, formBody, key, openFormId, ORIGIN, t, useWorld } from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// The submission path's limits hold on every door, and nothing after a stored submission fails.
// ---------------------------------------------------------------------------------------------

describe('submission limits on every transport, and the answer after a stored submission', () => {
  const trpcSubmit = (data: unknown) => t.request('POST', '/trpc/submissions.create', { body: { form_id: openFormId, data }, headers: { origin: ORIGIN } });
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('/trpc/submissions.create over 64 KiB of values → 413 payload_too_large, as on REST', async () => {
    expectTrpcError(await trpcSubmit({ message: 'a'.repeat(600_000) }), 413, 'payload_too_large', '600 KB');
    expectTrpcError(await trpcSubmit({ message: 'a'.repeat(64 * 1024) }), 413, 'payload_too_large', 'just over');
  });

  it('deeply nested values never overflow a stack: 422 within the limit, 413 beyond it, on both doors', async () => {
    const within = `{"message":${nested(30_000)}}`;
    const restWithin = await t.request('POST', `/v1/forms/${openFormId}/submissions`, { raw: within, headers: { origin: ORIGIN } });
    expectDocumentedError(restWithin, 422, 'validation_failed', 'REST within');
    const trpcWithin = await t.request('POST', '/trpc/submissions.create', {
      raw: `{"form_id":"${openFormId}","data":${within}}`,
      headers: { origin: ORIGIN },
    });
    expectTrpcError(trpcWithin, 422, 'validation_failed', 'tRPC within');
    const beyond = await t.request('POST', '/trpc/submissions.create', {
      raw: `{"form_id":"${openFormId}","data":{"message":${nested(200_000)}}}`,
      headers: { origin: ORIGIN },
    });
    expectTrpcError(beyond, 413, 'payload_too_large', 'tRPC beyond');
  });

  it('a tRPC batch of 200 calls → 400 batch_too_large, and none of them runs', async () => {
    const before = await countSubmissions(t, openFormId);
    const calls = 200;
    const body = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { form_id: openFormId, data: { message: 'hi' } }]));
    const paths = Array.from({ length: calls }, () => 'submissions.create').join(',');
    expectTrpcError(await t.request('POST', `/trpc/${paths}?batch=1`, { body, headers: { origin: ORIGIN } }), 400, 'batch_too_large');
    expect(await countSubmissions(t, openFormId)).toBe(before);
  });

  it('an HTML form post to a form whose redirect_url was stored raw → 303 to a valid Location, never a 500', async () => {
    const res = await t.request('POST', '/v1/forms', { token: key, body: { ...formBody, allowed_origins: [ORIGIN] } });
    await t.sql('update forms set redirect_url = ? where id = ?', ['https://例え.jp/merci-✓', res.json.id]);
    const post = await t.request('POST', `/v1/forms/${res.json.id}/submissions`, {
      raw: 'email=a%40example.com',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(post.status, post.body).toBe(303);
    expect(post.headers.location).toBe('https://xn--r8jz45g.jp/merci-%E2%9C%93');
  });
});
