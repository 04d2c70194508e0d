/**
 * The limit on forms made without credentials counts forms that are made: a refused attempt
 * (no notify_email, api_key mode, a workspace named without signing in) spends no allowance.
 */
import { describe, expect, it } from 'vitest';
import { expectError, useTestServer } from '@lfk/server/testing';

const ADDRESS = { 'x-forwarded-for': '203.0.113.40' };
const schema = [{ name: 'email', type: 'email' }];

const t = useTestServer({ LFK_RATE_LIMIT_ANONYMOUS_FORMS: '2/1h', LFK_TRUST_PROXY: '127.0.0.1' });

const create = (body: Record<string, unknown>) => t.request('POST', '/v1/forms', { body: { name: 'Contact', schema, ...body }, headers: ADDRESS });

describe('anonymous form creation', () => {
  it('refused attempts spend nothing: after five of them, two forms are still made; the third is 429', async () => {
    for (let i = 0; i < 5; i++) {
      expectError(await create({}), 400, 'invalid_request');
      expectError(await create({ notify_email: 'a@example.com', submission_mode: 'api_key' }), 400, 'invalid_request');
      expectError(await create({ notify_email: 'a@example.com', workspace_id: 'ws_x' }), 401, 'unauthenticated');
    }
    for (let i = 0; i < 2; i++) expect((await create({ notify_email: 'a@example.com' })).status).toBe(201);
    expectError(await create({ notify_email: 'a@example.com' }), 429, 'rate_limited');
  });
});
