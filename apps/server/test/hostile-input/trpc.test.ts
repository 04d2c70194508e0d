/**
 * Hostile input over the tRPC endpoint: the same hostility, in tRPC's envelope.
 */
import { describe, expect, it } from 'vitest';
import type { RequestOptions } from '@lfk/server/testing';
import {
  badIds,
  decodeURIComponentSafe,
  everyCase,
  expectTrpcError,
  formId,
  key,
  keyId,
  MALFORMED_JSON,
  member,
  MiB,
  NON_OBJECT_JSON,
  OTHER_CONTENT_TYPES,
  owner,
  t,
  useWorld,
} from './fixtures.ts';

useWorld();

// ---------------------------------------------------------------------------------------------
// The same hostility over tRPC.
// ---------------------------------------------------------------------------------------------

describe('tRPC endpoint', () => {
  const createUrl = '/trpc/apiKeys.create';
  const get = (path: string, input: unknown, token?: string) =>
    t.request('GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, token ? { token } : {});

  it('malformed JSON → 400 invalid_json', async () => {
    await everyCase(MALFORMED_JSON, async ([what, raw]) => {
      expectTrpcError(await t.request('POST', createUrl, { token: owner.token, raw }), 400, 'invalid_json', what);
    });
  });

  it('malformed ?input= → 400 invalid_json', async () => {
    await everyCase(['%7B', '%7B%22form_id%22%3A%7D', 'nul', '%7B%27a%27%3A1%7D'], async (input) => {
      expectTrpcError(await t.request('GET', `/trpc/forms.get?input=${input}`, { token: key }), 400, 'invalid_json', input);
    });
  });

  it('a body just over 1 MiB → 413 payload_too_large', async () => {
    const raw = `{"workspace_id":"${owner.workspaceId}","name":"${'a'.repeat(MiB)}"}`;
    expectTrpcError(await t.request('POST', createUrl, { token: owner.token, raw }), 413, 'payload_too_large');
  });

  it('other content types → 415 unsupported_media_type', async () => {
    await everyCase(OTHER_CONTENT_TYPES, async ([contentType, raw]) => {
      const res = await t.request('POST', createUrl, { token: owner.token, raw, headers: { 'content-type': contentType } });
      expectTrpcError(res, 415, 'unsupported_media_type', contentType);
    });
  });

  it('JSON that is not an object, and an empty body → 400 invalid_request', async () => {
    await everyCase([...NON_OBJECT_JSON, ['empty', ''] as [string, string]], async ([what, raw]) => {
      expectTrpcError(await t.request('POST', createUrl, { token: owner.token, raw }), 400, 'invalid_request', what);
    });
  });

  it('lone surrogates, control characters, overlong names and unknown fields → 400 with details', async () => {
    const raw = `{"workspace_id":"${owner.workspaceId}","name":"x\\ud800"}`;
    const surrogate = expectTrpcError(await t.request('POST', createUrl, { token: owner.token, raw }), 400, 'invalid_request');
    expect(surrogate.details?.map((d) => d.path)).toContain('name');
    await everyCase(['a\u0000b', 'k'.repeat(65), 42], async (name) => {
      const res = await t.request('POST', createUrl, { token: owner.token, body: { workspace_id: owner.workspaceId, name } });
      expect(expectTrpcError(res, 400, 'invalid_request', JSON.stringify(name).slice(0, 20)).details?.map((d) => d.path)).toContain('name');
    });
    const unknown = await t.request('POST', createUrl, { token: owner.token, body: { workspace_id: owner.workspaceId, extra: 1 } });
    expectTrpcError(unknown, 400, 'invalid_request', 'unknown field');
    const dup = await t.request('POST', '/trpc/forms.create', {
      token: key,
      body: {
        name: 'F',
        schema: [
          { name: 'a', type: 'text' },
          { name: 'a', type: 'text' },
        ],
      },
    });
    expect(expectTrpcError(dup, 400, 'invalid_request', 'duplicate').details?.map((d) => d.path)).toContain('schema.1.name');
  });

  it('ids of the wrong shape → 404 of that resource', async () => {
    // Each slot gets an id of another type (never its own: a real one would act on it).
    const slots: [string, 'query' | 'mutation', string, (id: string) => Record<string, unknown>, string, string][] = [
      ['forms.get', 'query', keyId, (id) => ({ form_id: id }), key, 'form_not_found'],
      ['forms.update', 'mutation', keyId, (id) => ({ form_id: id, name: 'x' }), key, 'form_not_found'],
      ['apiKeys.list', 'query', member.userId, (id) => ({ workspace_id: id }), owner.token, 'workspace_not_found'],
      ['apiKeys.revoke', 'mutation', formId, (id) => ({ workspace_id: owner.workspaceId, key_id: id }), owner.token, 'api_key_not_found'],
      ['members.remove', 'mutation', formId, (id) => ({ workspace_id: owner.workspaceId, user_id: id }), owner.token, 'member_not_found'],
    ];
    await everyCase(slots, async ([path, kind, otherTypeId, input, token, code]) => {
      await everyCase(badIds(otherTypeId), async ([what, id]) => {
        const value = decodeURIComponentSafe(id);
        const res = kind === 'query' ? await get(path, input(value), token) : await t.request('POST', `/trpc/${path}`, { token, body: input(value) });
        expectTrpcError(res, 404, code, `${path} ${what}`);
      });
    });
  });

  it('limit and cursor out of range → 400 invalid_request', async () => {
    await everyCase([{ limit: 0 }, { limit: 101 }, { limit: 'abc' }, { limit: 1.5 }, { cursor: 'bogus' }, { cursor: 5 }], async (input) => {
      const res = await get('workspaces.list', input, owner.token);
      const error = expectTrpcError(res, 400, 'invalid_request', JSON.stringify(input));
      expect(error.details?.map((d) => d.path)).toContain(Object.keys(input)[0]);
    });
  });

  it('unknown procedures and wrong methods → 404 not_found', async () => {
    const cases: [string, string, RequestOptions][] = [
      ['POST', '/trpc/nope.nope', { body: {} }],
      ['GET', '/trpc/nope', {}],
      ['GET', '/trpc/apiKeys', {}],
      ['GET', `/trpc/apiKeys.create?input=${encodeURIComponent(JSON.stringify({ workspace_id: owner.workspaceId }))}`, {}],
      ['POST', '/trpc/forms.get', { body: { form_id: formId } }],
      ['GET', '/trpc/__proto__.toString', {}],
      ['GET', `/trpc/${'x'.repeat(5000)}`, {}],
    ];
    await everyCase(cases, async ([method, url, o]) => {
      const res = await t.request(method, url, { token: owner.token, ...o });
      expectTrpcError(res, 404, 'not_found', `${method} ${url.slice(0, 50)}`);
    });
  });
});
