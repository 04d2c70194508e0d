/**
 * An id of any length that reaches the server is judged by the procedure, on REST as on tRPC:
 * a wrong-shaped id is the 404 of its resource, never a router's 400 for a long path segment.
 */
import { beforeAll, describe, it } from 'vitest';
import { expectError, ORIGIN, useTestServer, VALID } from '@lfk/server/testing';

const t = useTestServer();
let key: string;

beforeAll(async () => {
  ({ key } = await t.signupWithKey());
});

describe('long path ids', () => {
  it.each([9000, 15_000])('a %i-character form id → 404 form_not_found through REST and tRPC alike', async (length) => {
    const id = `form_${'a'.repeat(length)}`;
    expectError(await t.request('GET', `/v1/forms/${id}`, { token: key }), 404, 'form_not_found');
    expectError(await t.request('PATCH', `/v1/forms/${id}`, { token: key, body: { name: 'x' } }), 404, 'form_not_found');
    expectError(await t.request('POST', `/v1/forms/${id}/submissions`, { body: VALID, headers: { origin: ORIGIN } }), 404, 'form_not_found');
    const overTrpc = await t.request('GET', `/trpc/forms.get?input=${encodeURIComponent(JSON.stringify({ form_id: id }))}`, {
      token: key,
    });
    expectError(overTrpc, 404, 'form_not_found');
  });
});
