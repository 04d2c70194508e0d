/**
 * A form notes the origins it refuses (a browser submission or a CORS preflight from a page not on
 * its allowed origins), so its owner can see which one is missing: the newest 5, newest first,
 * on the form as every transport answers it.
 */
import { createContactForm, ORIGIN, submit, submitOverTrpc, useTestServer, VALID } from '@lfk/server/testing';
import { describe, expect, it } from 'vitest';

const t = useTestServer();

const refusedOf = async (token: string, formId: string) => {
  await t.server.services.background.settle();
  const res = await t.request('GET', `/v1/forms/${formId}`, { token });
  expect(res.status, res.body).toBe(200);
  return res.json.refused_origins as { origin: string; last_refused_at: string }[];
};

describe('refused origins', () => {
  it('are noted from refused submissions and preflights, newest first, the allowed one never', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    expect(await refusedOf(owner.token, form.id)).toEqual([]);

    expect((await submit(t, form.id, VALID, { origin: 'https://www.shop.example' })).status).toBe(403);
    const preflight = await t.request('OPTIONS', `/v1/forms/${form.id}/submissions`, {
      headers: { origin: 'http://localhost:8080', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect((await submit(t, form.id, VALID, { origin: ORIGIN })).status).toBe(201);

    const refused = await refusedOf(owner.token, form.id);
    expect(refused.map((r) => r.origin)).toEqual(['http://localhost:8080', 'https://www.shop.example']);
    expect(Date.parse(refused[0]!.last_refused_at)).not.toBeNaN();
    // The workspace's list shows them too.
    const list = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms`, { token: owner.token });
    expect(list.json.data.find((f: { id: string }) => f.id === form.id).refused_origins).toEqual(refused);
  });

  it('keep the newest 5 distinct origins; one refused again moves to the front, once', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner);
    for (let i = 1; i <= 7; i++) {
      // One after another: each goes first, even one noted in the same millisecond as the last.
      expect((await submitOverTrpc(t, form.id, VALID, { origin: `https://site-${i}.example` })).status).toBe(403);
      await t.server.services.background.settle();
    }
    expect((await refusedOf(owner.token, form.id)).map((r) => r.origin)).toEqual([7, 6, 5, 4, 3].map((i) => `https://site-${i}.example`));
    // Noted at most once a minute per origin: refused again at once, it stays where it was.
    expect((await submit(t, form.id, VALID, { origin: 'https://site-3.example' })).status).toBe(403);
    expect((await refusedOf(owner.token, form.id)).map((r) => r.origin)).toEqual([7, 6, 5, 4, 3].map((i) => `https://site-${i}.example`));
  });

  it('are not noted for a form that takes submissions from servers only (api_key_required)', async () => {
    const owner = await t.signup();
    const form = await createContactForm(t, owner, { submission_mode: 'api_key', allowed_origins: [] });
    expect((await submit(t, form.id, VALID, { origin: 'https://www.shop.example' })).status).toBe(401);
    expect(await refusedOf(owner.token, form.id)).toEqual([]);
  });
});
