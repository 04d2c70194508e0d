/**
 * Forms: GET /v1/workspaces/{ws}/forms.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '@lfk/server/testing';
import { createAnonymous, SCHEMA, t, useWorld } from './fixtures.ts';

useWorld();

describe('GET /v1/workspaces/{ws}/forms', () => {
  it('members see their workspace’s claimed forms, newest first, page by page', async () => {
    const owner = await t.signup();
    const member = await t.signup();
    await t.addMember(owner.workspaceId, member.email, 'member');
    const { key } = await t.createKey(owner.token, owner.workspaceId);

    const ids: string[] = [];
    for (const name of ['First', 'Second']) {
      const res = await t.request('POST', '/v1/forms', { token: key, body: { name, schema: SCHEMA } });
      expect(res.status).toBe(201);
      ids.push(res.json.id);
    }
    const bySession = await t.request('POST', '/v1/forms', {
      token: member.token,
      body: { name: 'Third', schema: SCHEMA, workspace_id: owner.workspaceId },
    });
    expect(bySession.status, bySession.body).toBe(201);
    ids.push(bySession.json.id);
    // An anonymous form claimed into the workspace joins the list; one left unclaimed does not.
    const claimedLater = await createAnonymous(t);
    const claim = await t.request('POST', `/v1/forms/${claimedLater.id}/claim`, {
      token: owner.token,
      body: { claim_token: claimedLater.claim_token, workspace_id: owner.workspaceId },
    });
    expect(claim.status).toBe(200);
    ids.push(claimedLater.id);
    await createAnonymous(t);
    // Another workspace's forms are not listed.
    const stranger = await t.signup();
    const strangerKey = await t.createKey(stranger.token, stranger.workspaceId);
    expect((await t.request('POST', '/v1/forms', { token: strangerKey.key, body: { name: 'Theirs', schema: SCHEMA } })).status).toBe(201);

    const newestFirst = [...ids].reverse();
    for (const who of [owner, member]) {
      const all = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms`, { token: who.token });
      expect(all.status, all.body).toBe(200);
      expect(all.json.data.map((f: { id: string }) => f.id)).toEqual(newestFirst);
      expect(all.json.next_cursor).toBeNull();
      for (const f of all.json.data) expect(f).toMatchObject({ state: 'claimed', workspace_id: owner.workspaceId });
      // The list's item is the form as GET answers it, with its submission count and last time, and its drafts' count.
      expect(all.json.data.find((f: { id: string }) => f.id === ids[0])).toEqual({
        ...(await t.request('GET', `/v1/forms/${ids[0]}`, { token: key })).json,
        submission_count: 0,
        last_submission_at: null,
        draft_count: 0,
      });
    }

    const page1 = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms?limit=3`, { token: member.token });
    expect(page1.status).toBe(200);
    expect(page1.json.data.map((f: { id: string }) => f.id)).toEqual(newestFirst.slice(0, 3));
    expect(page1.json.next_cursor).toEqual(expect.any(String));
    const page2 = await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms?limit=3&cursor=${encodeURIComponent(page1.json.next_cursor)}`, {
      token: member.token,
    });
    expect(page2.status).toBe(200);
    expect(page2.json.data.map((f: { id: string }) => f.id)).toEqual(newestFirst.slice(3));
    expect(page2.json.next_cursor).toBeNull();

    expectError(await t.request('GET', `/v1/workspaces/${owner.workspaceId}/forms?limit=0`, { token: owner.token }), 400, 'invalid_request');
  });

  it('keys → 403 session_required; outsiders → 404 workspace_not_found; nobody → 401', async () => {
    const { owner, key } = await t.signupWithKey();
    const outsider = await t.signup();
    const url = `/v1/workspaces/${owner.workspaceId}/forms`;
    expectError(await t.request('GET', url, { token: key }), 403, 'session_required');
    expectError(await t.request('GET', url, { token: outsider.token }), 404, 'workspace_not_found');
    expectError(await t.request('GET', '/v1/workspaces/ws_01jd00000000000000000000aa/forms', { token: outsider.token }), 404, 'workspace_not_found');
    expectError(await t.request('GET', url), 401, 'unauthenticated');
  });
});
