/**
 * Forms: POST /v1/forms/{id}/claim.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '@lfk/server/testing';
import { auditEvents, createAnonymous, defaultProjectOf, formRow, strayClaimToken, t, useWorld } from './fixtures.ts';

useWorld();

describe('POST /v1/forms/{id}/claim', () => {
  it('a member claims with the token into the default project; the token works once', async () => {
    const form = await createAnonymous(t, { redirect_url: 'https://example.com/thanks' });
    const owner = await t.signup();
    const defaultProject = await defaultProjectOf(owner.token, owner.workspaceId);

    const claimed = await t.request('POST', `/v1/forms/${form.id}/claim`, {
      token: owner.token,
      body: { claim_token: form.claim_token, workspace_id: owner.workspaceId },
    });
    expect(claimed.status, claimed.body).toBe(200);
    expect(claimed.json).toMatchObject({
      id: form.id,
      name: form.name,
      state: 'claimed',
      workspace_id: owner.workspaceId,
      project_id: defaultProject,
      notify_email: form.notify_email,
      redirect_url: 'https://example.com/thanks',
    });
    expect(claimed.json.claim_token).toBeUndefined();
    const row = await formRow(form.id);
    expect(row).toMatchObject({ state: 'claimed', workspace_id: owner.workspaceId, project_id: defaultProject });

    // The same token again, by the same caller or anyone else: already claimed.
    const again = await t.request('POST', `/v1/forms/${form.id}/claim`, {
      token: owner.token,
      body: { claim_token: form.claim_token, workspace_id: owner.workspaceId },
    });
    expectError(again, 409, 'form_already_claimed');
    const other = await t.signup();
    const stolen = await t.request('POST', `/v1/forms/${form.id}/claim`, {
      token: other.token,
      body: { claim_token: form.claim_token, workspace_id: other.workspaceId },
    });
    expectError(stolen, 409, 'form_already_claimed');
    expect((await formRow(form.id)).workspace_id).toBe(owner.workspaceId);

    // Now the workspace's members and keys reach it.
    const bySession = await t.request('GET', `/v1/forms/${form.id}`, { token: owner.token });
    expect(bySession.status).toBe(200);
    expect(bySession.json).toEqual(claimed.json);
    const { key, id: keyId } = await t.createKey(owner.token, owner.workspaceId);
    const byKey = await t.request('GET', `/v1/forms/${form.id}`, { token: key });
    expect(byKey.status).toBe(200);
    expect(byKey.json).toEqual(claimed.json);
    const patched = await t.request('PATCH', `/v1/forms/${form.id}`, { token: key, body: { name: 'Claimed and renamed' } });
    expect(patched.status, patched.body).toBe(200);
    expect(patched.json.name).toBe('Claimed and renamed');
    // The other workspace's key still does not.
    const { key: otherKey } = await t.createKey(other.token, other.workspaceId);
    expectError(await t.request('GET', `/v1/forms/${form.id}`, { token: otherKey }), 404, 'form_not_found');

    const events = await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      workspace_id: owner.workspaceId,
      actor: { type: 'user', id: owner.userId },
      target: { type: 'form', id: form.id },
    });
    const updates = await auditEvents(owner.token, owner.workspaceId, 'form.updated', form.id);
    expect(updates).toHaveLength(1);
    expect(updates[0].actor).toEqual({ type: 'api_key', id: keyId });
    expect(JSON.stringify(events)).not.toContain(form.claim_token.slice(4));
  });

  it('a plain member (not owner) of a workspace may claim into it', async () => {
    const form = await createAnonymous(t);
    const owner = await t.signup();
    const member = await t.signup();
    await t.addMember(owner.workspaceId, member.email, 'member');
    const res = await t.request('POST', `/v1/forms/${form.id}/claim`, {
      token: member.token,
      body: { claim_token: form.claim_token, workspace_id: owner.workspaceId },
    });
    expect(res.status, res.body).toBe(200);
    expect(res.json.workspace_id).toBe(owner.workspaceId);
    const events = await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id);
    expect(events.map((e: { actor: unknown }) => e.actor)).toEqual([{ type: 'user', id: member.userId }]);
  });

  it('a wrong or malformed token, or an unknown form, is 404 form_not_found and claims nothing', async () => {
    const form = await createAnonymous(t);
    const other = await createAnonymous(t);
    const user = await t.signup();
    const attempt = (formId: string, claimToken: unknown) =>
      t.request('POST', `/v1/forms/${encodeURIComponent(formId)}/claim`, {
        token: user.token,
        body: { claim_token: claimToken, workspace_id: user.workspaceId },
      });

    expectError(await attempt(form.id, strayClaimToken()), 404, 'form_not_found');
    // Another form's real token does not open this one.
    expectError(await attempt(form.id, other.claim_token), 404, 'form_not_found');
    for (const malformed of ['lfc_short', `${form.claim_token}x`, form.claim_token.slice(0, -1), form.claim_token.replace('lfc_', 'lfk_'), '']) {
      expectError(await attempt(form.id, malformed), 404, 'form_not_found');
    }
    // Unknown forms, well-formed or not, even with a real token.
    expectError(await attempt('form_01jd00000000000000000000aa', form.claim_token), 404, 'form_not_found');
    expectError(await attempt('not-a-form', form.claim_token), 404, 'form_not_found');

    const row = await formRow(form.id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();
    // The right token still works afterwards.
    const ok = await attempt(form.id, form.claim_token);
    expect(ok.status, ok.body).toBe(200);
  });

  it('someone else’s workspace → 404 workspace_not_found; a key → 403; no credentials → 401', async () => {
    const form = await createAnonymous(t);
    const owner = await t.signup();
    const outsider = await t.signup();
    const body = { claim_token: form.claim_token, workspace_id: owner.workspaceId };

    expectError(
      await t.request('POST', `/v1/forms/${form.id}/claim`, { token: outsider.token, body }),
      404,
      'workspace_not_found',
    );
    expectError(
      await t.request('POST', `/v1/forms/${form.id}/claim`, {
        token: outsider.token,
        body: { ...body, workspace_id: 'ws_01jd00000000000000000000aa' },
      }),
      404,
      'workspace_not_found',
    );
    const { key } = await t.createKey(owner.token, owner.workspaceId);
    expectError(await t.request('POST', `/v1/forms/${form.id}/claim`, { token: key, body }), 403, 'session_required');
    expectError(await t.request('POST', `/v1/forms/${form.id}/claim`, { body }), 401, 'unauthenticated');

    const row = await formRow(form.id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();
    expect(await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id)).toHaveLength(0);
  });

  it('5 concurrent claims by members of different workspaces: exactly one 200, four 409', async () => {
    const form = await createAnonymous(t);
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await t.signup());
    const results = await Promise.all(
      users.map((u) =>
        t.request('POST', `/v1/forms/${form.id}/claim`, {
          token: u.token,
          body: { claim_token: form.claim_token, workspace_id: u.workspaceId },
        }),
      ),
    );
    const winners = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(winners, results.map((r) => `${r.status} ${r.body}`).join('\n')).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 409, 'form_already_claimed');
    const winner = users[winners[0]!]!;
    expect(results[winners[0]!]!.json.workspace_id).toBe(winner.workspaceId);
    const row = await formRow(form.id);
    expect(row.state).toBe('claimed');
    expect(row.workspace_id).toBe(winner.workspaceId);
    expect(row.project_id).toBe(await defaultProjectOf(winner.token, winner.workspaceId));
    expect(await t.count("audit_events where action = 'form.claimed' and target_id = ?", [form.id])).toBe(1);
  });
});
