/**
 * Submissions end to end: GET /v1/forms/{form_id}/submissions, paginated.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, ORIGIN } from '@lfk/server/testing';
import { createForm, expectCreated, listAll, member, outsider, outsiderKey, owner, ownerKey, submit, t, useWorld } from './fixtures.ts';

useWorld();

describe('listing submissions', () => {
  let formId: string;
  let createdIds: string[];
  beforeAll(async () => {
    formId = (await createForm()).id;
    createdIds = [];
    for (let i = 0; i < 5; i++) {
      const res = await submit(formId, { name: `Person ${i}`, email: `p${i}@example.com`, age: i }, { origin: ORIGIN });
      expectCreated(res, formId);
      createdIds.push(res.json.id);
    }
  });

  it('owner and member sessions see newest first, and ?limit=2 pages through all without duplicates', async () => {
    const newestFirst = [...createdIds].reverse();
    for (const who of [owner, member]) {
      const all = await t.request('GET', `/v1/forms/${formId}/submissions`, { token: who.token });
      expect(all.status).toBe(200);
      expect(all.json.data.map((s: { id: string }) => s.id)).toEqual(newestFirst);
      expect(all.json.data[0]).toMatchObject({ data: { name: 'Person 4', email: 'p4@example.com', age: 4, agree: false } });
      expect(all.json.next_cursor).toBeNull();

      const first = await t.request('GET', `/v1/forms/${formId}/submissions?limit=2`, { token: who.token });
      expect(first.json.data.map((s: { id: string }) => s.id)).toEqual(newestFirst.slice(0, 2));
      expect(first.json.next_cursor).toEqual(expect.any(String));

      const { items, pages } = await listAll(formId, who.token, 2);
      expect(pages).toBe(3);
      const ids = items.map((s: { id: string }) => s.id);
      expect(ids).toEqual(newestFirst);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('an API key is 403 session_required, an outsider 404 form_not_found, no credentials 401', async () => {
    const url = `/v1/forms/${formId}/submissions`;
    expectError(await t.request('GET', url, { token: ownerKey.key }), 403, 'session_required');
    expectError(await t.request('GET', url, { token: outsider.token }), 404, 'form_not_found');
    expectError(await t.request('GET', url, { token: outsiderKey.key }), 403, 'session_required');
    const anonymous = await t.request('GET', url);
    expectError(anonymous, 401, 'unauthenticated');
    expect(anonymous.body).not.toContain('Person');
  });

  it('rejects bad limits and cursors with 400', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=nope']) {
      expectError(await t.request('GET', `/v1/forms/${formId}/submissions?${query}`, { token: owner.token }), 400, 'invalid_request');
    }
  });
});
