/**
 * Who may call what, decided by the procedure builders (trpc.ts), checked through `createCaller`
 * with real credentials on the real database: no HTTP, so each case costs a few queries. The
 * server suite's authorization matrix checks the same doors over HTTP, route by route.
 */
import { MAX_ACTIVE_KEYS } from '@lfk/vocabulary';
import { describe, expect, it } from 'vitest';
import { toWireError } from '../src/errors.ts';
import { refusal } from './support/refusals.ts';
import { key, member, outsider, owner, services, useTeamWithKey } from './support/team.ts';
import { callerFor, person } from './world.ts';

const contactForm = { name: 'Contact', schema: [{ name: 'email', type: 'email' as const, required: true }] };

useTeamWithKey({}, { name: 'rules' });

describe('sessionProcedure and its owner and member builders', () => {
  it('refuses nobody with unauthenticated, and a key with session_required, before reading the input', async () => {
    const input = { workspace_id: owner.workspaceId };
    expect(await refusal((await callerFor(services)).apiKeys.list(input))).toEqual({ status: 401, code: 'unauthenticated' });
    expect(await refusal((await callerFor(services, key)).apiKeys.list(input))).toEqual({ status: 403, code: 'session_required' });
    expect(await refusal((await callerFor(services, key)).workspaces.list({}))).toEqual({ status: 403, code: 'session_required' });
  });

  it('lets an owner manage keys; a member is told owner_required, an outsider that there is no such workspace', async () => {
    const input = { workspace_id: owner.workspaceId };
    const keys = await (await callerFor(services, owner.token)).apiKeys.list(input);
    expect(keys.data.map((k) => k.name)).toContain('rules');
    expect(await refusal((await callerFor(services, member.token)).apiKeys.list(input))).toEqual({ status: 403, code: 'owner_required' });
    expect(await refusal((await callerFor(services, outsider.token)).apiKeys.list(input))).toEqual({ status: 404, code: 'workspace_not_found' });
  });

  it('lets a member read what members may read (the member list), and refuses the outsider the same way', async () => {
    const input = { workspace_id: owner.workspaceId };
    const members = await (await callerFor(services, member.token)).members.list(input);
    expect(members.data.map((m) => m.user_id).sort()).toEqual([owner.userId, member.userId].sort());
    expect(await refusal((await callerFor(services, outsider.token)).members.list(input))).toEqual({ status: 404, code: 'workspace_not_found' });
  });
});

describe('formsScopeProcedure', () => {
  it("reaches a form with its workspace's key or a member's session; anyone else gets form_not_found", async () => {
    const form = await (await callerFor(services, key)).forms.create(contactForm);
    expect(form).toMatchObject({ state: 'claimed', workspace_id: owner.workspaceId });
    expect((await (await callerFor(services, member.token)).forms.get({ form_id: form.id })).id).toBe(form.id);

    const { key: otherKey } = await (await callerFor(services, outsider.token)).apiKeys.create({ workspace_id: outsider.workspaceId });
    expect(await refusal((await callerFor(services, otherKey)).forms.get({ form_id: form.id }))).toEqual({ status: 404, code: 'form_not_found' });
    expect(await refusal((await callerFor(services, outsider.token)).forms.get({ form_id: form.id }))).toEqual({ status: 404, code: 'form_not_found' });
  });

  it('refuses a revoked key with invalid_api_key, the answer an unknown key gets', async () => {
    const asOwner = await callerFor(services, owner.token);
    const doomed = await asOwner.apiKeys.create({ workspace_id: owner.workspaceId, name: 'doomed' });
    await (await callerFor(services, doomed.key)).forms.create(contactForm);
    await asOwner.apiKeys.revoke({ workspace_id: owner.workspaceId, key_id: doomed.id });
    const revoked = await refusal((await callerFor(services, doomed.key)).forms.create(contactForm));
    const unknown = await refusal((await callerFor(services, `lfk_${'x'.repeat(40)}`)).forms.create(contactForm));
    expect(revoked).toEqual({ status: 401, code: 'invalid_api_key' });
    expect(unknown).toEqual(revoked);
  });
});

describe('the active key limit', () => {
  it(`holds at ${MAX_ACTIVE_KEYS} under concurrent creates: the rest are refused with api_key_limit_reached`, async () => {
    const team = await person(services);
    const asTeam = await callerFor(services, team.token);
    const outcomes = await Promise.allSettled(
      Array.from({ length: MAX_ACTIVE_KEYS + 5 }, (_, i) => asTeam.apiKeys.create({ workspace_id: team.workspaceId, name: `k${i}` })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(MAX_ACTIVE_KEYS);
    for (const failed of outcomes.filter((o) => o.status === 'rejected')) {
      expect(toWireError(failed.reason, '').body.error.code).toBe('api_key_limit_reached');
    }
    const listed = await asTeam.apiKeys.list({ workspace_id: team.workspaceId });
    expect(listed.data.filter((k) => k.status === 'active')).toHaveLength(MAX_ACTIVE_KEYS);
  });
});
