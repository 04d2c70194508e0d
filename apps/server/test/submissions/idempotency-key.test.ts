/**
 * Submissions end to end: Idempotency-Key on submissions.
 */
import { describe, expect, it } from 'vitest';
import { expectError, ORIGIN } from '@lfk/server/testing';
import { countRows, createForm, expectCreated, owner, ownerKey, storedRows, submit, t, useWorld } from './fixtures.ts';

useWorld();

describe('Idempotency-Key on submissions', () => {
  const body = { name: 'Ada', email: 'ada@example.com' };

  it('the same key and body replays the first answer, with one row', async () => {
    const form = await createForm();
    const first = await submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': 'order-1' } });
    expectCreated(first, form.id);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': 'order-1' } });
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countRows(form.id)).toBe(1);

    const other = await submit(form.id, { name: 'Grace', email: 'grace@example.com' }, { origin: ORIGIN, headers: { 'idempotency-key': 'order-1' } });
    expectError(other, 409, 'idempotency_key_reused');
    expect(await countRows(form.id)).toBe(1);

    // Another key is another submission.
    const second = await submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': 'order-2' } });
    expectCreated(second, form.id);
    expect(second.json.id).not.toBe(first.json.id);
    expect(await countRows(form.id)).toBe(2);
  });

  it('10 concurrent requests with one key and body make exactly one submission', async () => {
    const form = await createForm();
    const results = await Promise.all(Array.from({ length: 10 }, () => submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': 'burst' } })));
    for (const res of results) expect(res.status, res.body).toBe(201);
    expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await countRows(form.id)).toBe(1);
    expect((await storedRows(form.id))[0]!.id).toBe(results[0]!.json.id);
  });

  it('the same key from two different callers (two keys of one workspace) makes two submissions', async () => {
    const form = await createForm();
    const second = await t.createKey(owner.token, owner.workspaceId, 'second');
    const a = await submit(form.id, body, { key: ownerKey.key, headers: { 'idempotency-key': 'shared' } });
    const b = await submit(form.id, body, { key: second.key, headers: { 'idempotency-key': 'shared' } });
    expectCreated(a, form.id);
    expectCreated(b, form.id);
    expect(b.json.id).not.toBe(a.json.id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    const rows = await storedRows(form.id);
    expect(rows.map((r) => r.api_key_id)).toEqual([ownerKey.id, second.id]);
  });

  it('a malformed Idempotency-Key is a 400 and stores nothing', async () => {
    const form = await createForm();
    for (const key of ['', 'has space', 'x'.repeat(256), 'é']) {
      const res = await submit(form.id, body, { origin: ORIGIN, headers: { 'idempotency-key': key } });
      expectError(res, 400, 'invalid_request');
    }
    expect(await countRows(form.id)).toBe(0);
  });
});
