/**
 * Claiming an anonymous form (`forms.claim`) with its claim token, through `createCaller`. The route
 * (`POST /v1/forms/{id}/claim`, 200) is the REST table's; who may call it, the authorization matrix's.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { seedMembership } from '../../testing.ts';
import { sql } from '../../../test/support/database.ts';
import { createAnonymous as createAnonymousForm, formRow as formRowOf } from '../../../test/support/forms.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A claim token of the right shape that was never handed out. */
const strayClaimToken = () => `lfc_${Array.from(randomBytes(43), (b) => BASE62[b % 62]).join('')}`;
const createAnonymous = (extra: Record<string, unknown> = {}) => createAnonymousForm(services, extra);
const formRow = (id: string) => formRowOf(services, id);

const claim = async (bearer: string | undefined, formId: string, claimToken: unknown, workspaceId: string) =>
  (await callerFor(services, bearer)).forms.claim({ form_id: formId, claim_token: claimToken, workspace_id: workspaceId } as never);

async function defaultProjectOf(token: string, workspaceId: string): Promise<string> {
  const { data } = await (await callerFor(services, token)).projects.list({ workspace_id: workspaceId });
  const defaults = data.filter((p) => p.is_default);
  expect(defaults).toHaveLength(1);
  return defaults[0]!.id;
}

/** The workspace's audit events of `action` on `targetId`, as its owner lists them. */
async function auditEvents(ownerToken: string, workspaceId: string, action: string, targetId: string) {
  const { data } = await (await callerFor(services, ownerToken)).auditEvents.list({ workspace_id: workspaceId, limit: 100 });
  return data.filter((e) => e.action === action && e.target?.id === targetId);
}

describe('POST /v1/forms/{id}/claim', () => {
  it('a member claims with the token into the default project; the token works once', async () => {
    const form = await createAnonymous({ redirect_url: 'https://example.com/thanks' });
    const owner = await person(services);
    const defaultProject = await defaultProjectOf(owner.token, owner.workspaceId);

    const claimed = await claim(owner.token, form.id, form.claim_token, owner.workspaceId);
    expect(claimed).toMatchObject({
      id: form.id,
      name: form.name,
      state: 'claimed',
      workspace_id: owner.workspaceId,
      project_id: defaultProject,
      notify_email: form.notify_email,
      redirect_url: 'https://example.com/thanks',
    });
    expect((claimed as Record<string, unknown>).claim_token).toBeUndefined();
    const row = await formRow(form.id);
    expect(row).toMatchObject({ state: 'claimed', workspace_id: owner.workspaceId, project_id: defaultProject });

    // The same token again, by the same caller or anyone else: already claimed.
    await expectRefused(claim(owner.token, form.id, form.claim_token, owner.workspaceId), 409, 'form_already_claimed');
    const other = await person(services);
    await expectRefused(claim(other.token, form.id, form.claim_token, other.workspaceId), 409, 'form_already_claimed');
    expect((await formRow(form.id)).workspace_id).toBe(owner.workspaceId);

    // Now the workspace's members and keys reach it.
    const bySession = await (await callerFor(services, owner.token)).forms.get({ form_id: form.id });
    expect(bySession).toEqual(claimed);
    const { key, id: keyId } = await createKey(services, owner);
    const asKey = await callerFor(services, key);
    expect(await asKey.forms.get({ form_id: form.id })).toEqual(claimed);
    const patched = await asKey.forms.update({ form_id: form.id, name: 'Claimed and renamed' });
    expect(patched.name).toBe('Claimed and renamed');
    // The other workspace's key still does not.
    const { key: otherKey } = await createKey(services, other);
    await expectRefused((await callerFor(services, otherKey)).forms.get({ form_id: form.id }), 404, 'form_not_found');

    const events = await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      workspace_id: owner.workspaceId,
      actor: { type: 'user', id: owner.userId },
      target: { type: 'form', id: form.id },
    });
    const updates = await auditEvents(owner.token, owner.workspaceId, 'form.updated', form.id);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.actor).toEqual({ type: 'api_key', id: keyId });
    expect(JSON.stringify(events)).not.toContain(form.claim_token.slice(4));
  });

  it('a plain member (not owner) of a workspace may claim into it', async () => {
    const form = await createAnonymous();
    const owner = await person(services);
    const member = await person(services);
    await seedMembership(services.db, owner.workspaceId, member.email, 'member');
    const claimed = await claim(member.token, form.id, form.claim_token, owner.workspaceId);
    expect(claimed.workspace_id).toBe(owner.workspaceId);
    const events = await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id);
    expect(events.map((e) => e.actor)).toEqual([{ type: 'user', id: member.userId, email: member.email }]);
  });

  it('a wrong or malformed token, or an unknown form, is 404 form_not_found and claims nothing', async () => {
    const form = await createAnonymous();
    const other = await createAnonymous();
    const user = await person(services);
    const attempt = (formId: string, claimToken: unknown) => claim(user.token, formId, claimToken, user.workspaceId);

    await expectRefused(attempt(form.id, strayClaimToken()), 404, 'form_not_found');
    // Another form's real token does not open this one.
    await expectRefused(attempt(form.id, other.claim_token), 404, 'form_not_found');
    for (const malformed of ['lfc_short', `${form.claim_token}x`, form.claim_token.slice(0, -1), form.claim_token.replace('lfc_', 'lfk_'), '']) {
      await expectRefused(attempt(form.id, malformed), 404, 'form_not_found', { what: malformed });
    }
    // Unknown forms, well-formed or not, even with a real token.
    await expectRefused(attempt('form_01jd00000000000000000000aa', form.claim_token), 404, 'form_not_found');
    await expectRefused(attempt('not-a-form', form.claim_token), 404, 'form_not_found');

    const row = await formRow(form.id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();
    // The right token still works afterwards.
    expect(await attempt(form.id, form.claim_token)).toMatchObject({ id: form.id, state: 'claimed' });
  });

  it('someone else’s workspace → 404 workspace_not_found; a key → 403; no credentials → 401', async () => {
    const form = await createAnonymous();
    const owner = await person(services);
    const outsider = await person(services);

    await expectRefused(claim(outsider.token, form.id, form.claim_token, owner.workspaceId), 404, 'workspace_not_found');
    await expectRefused(claim(outsider.token, form.id, form.claim_token, 'ws_01jd00000000000000000000aa'), 404, 'workspace_not_found');
    const { key } = await createKey(services, owner);
    await expectRefused(claim(key, form.id, form.claim_token, owner.workspaceId), 403, 'session_required');
    await expectRefused(claim(undefined, form.id, form.claim_token, owner.workspaceId), 401, 'unauthenticated');

    const row = await formRow(form.id);
    expect(row.state).toBe('unclaimed');
    expect(row.workspace_id).toBeNull();
    expect(await auditEvents(owner.token, owner.workspaceId, 'form.claimed', form.id)).toHaveLength(0);
  });

  it('5 concurrent claims by members of different workspaces: exactly one 200, four 409', async () => {
    const form = await createAnonymous();
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await person(services));
    const calls = users.map((u) => claim(u.token, form.id, form.claim_token, u.workspaceId));
    const results = await Promise.all(calls.map(outcome));
    const winners = results.flatMap((r, i) => (r === 'done' ? [i] : []));
    expect(winners, results.join('\n')).toHaveLength(1);
    expect(results.filter((r) => r !== 'done')).toEqual(Array(4).fill('409 form_already_claimed'));
    const winner = users[winners[0]!]!;
    expect((await calls[winners[0]!]!).workspace_id).toBe(winner.workspaceId);
    const row = await formRow(form.id);
    expect(row.state).toBe('claimed');
    expect(row.workspace_id).toBe(winner.workspaceId);
    expect(row.project_id).toBe(await defaultProjectOf(winner.token, winner.workspaceId));
    const [counted] = await sql<{ n: number | string }>(services, "select count(*) as n from audit_events where action = 'form.claimed' and target_id = ?", [
      form.id,
    ]);
    expect(Number(counted!.n)).toBe(1);
  });
});
