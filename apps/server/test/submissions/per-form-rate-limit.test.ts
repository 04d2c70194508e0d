/**
 * Submissions end to end: the per-form browser submission rate limit.
 */
import { describe, expect, it } from 'vitest';
import { expectError, ORIGIN, useTestServer } from '@lfk/server/testing';
import { countRows, createForm, expectCreated, LOCAL_ORIGIN, submit } from './fixtures.ts';

describe('per-form browser submission rate limit', () => {
  const limited = useTestServer({ LFK_RATE_LIMIT_BROWSER_SUBMISSIONS: '3/1m' });

  it('the 4th browser submission to a form is 429; other forms and key submissions are unaffected', async () => {
    const user = await limited.signup();
    const key = await limited.createKey(user.token, user.workspaceId);
    const a = await createForm({}, limited, user);
    const b = await createForm({}, limited, user);
    const body = { name: 'Ada', email: 'ada@example.com' };

    // Key submissions first: they must not use up the browser allowance.
    for (let i = 0; i < 4; i++) expectCreated(await submit(a.id, body, { key: key.key, server: limited }), a.id);
    for (let i = 0; i < 3; i++) expectCreated(await submit(a.id, body, { origin: ORIGIN, server: limited }), a.id);

    const fourth = await submit(a.id, body, { origin: ORIGIN, server: limited });
    expectError(fourth, 429, 'rate_limited');
    const retryAfter = String(fourth.headers['retry-after']);
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);

    expectCreated(await submit(b.id, body, { origin: ORIGIN, server: limited }), b.id);
    expectCreated(await submit(a.id, body, { key: key.key, server: limited }), a.id);
    expectError(await submit(a.id, body, { origin: LOCAL_ORIGIN, server: limited }), 429, 'rate_limited');

    expect(await countRows(a.id, limited)).toBe(4 + 3 + 1);
    expect(await countRows(b.id, limited)).toBe(1);
  });
});
