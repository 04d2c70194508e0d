/**
 * A workspace that requires a second factor of its members: owners turn it on (having one
 * themselves); a member without one reaches nothing of it but is told how to get in, and may still
 * leave; keys are not people and are unaffected.
 */
import { ENGINE, testClock } from '@lfk/testing';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { auditActions } from '../../../test/support/database.ts';
import { createContactForm } from '../../../test/support/forms.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused } from '../../../test/support/refusals.ts';
import { team } from '../../../test/support/team.ts';
import { TEST_PASSWORD } from '../../testing.ts';
import { callerFor, type Person, testServices } from '../../../test/world.ts';

const clock = testClock(new Date('2026-11-28T15:00:15Z'));
let services: Services;
beforeAll(async () => {
  services = await testServices({ now: clock.now });
});

const as = (token?: string) => callerFor(services, token);

async function setUpApp(who: Person) {
  const started = await (await as(who.token)).twoFactor.startTotp();
  await (await as(who.token)).twoFactor.confirmTotp({ code: await generate({ secret: started.secret, epoch: Math.floor(clock.now().getTime() / 1000) }) });
}

describe(`require_two_factor (${ENGINE})`, () => {
  it('an owner without a second factor cannot turn it on: it would lock them out', async () => {
    const { owner } = await team(services);
    await expectRefused(
      (await as(owner.token)).workspaces.update({ workspace_id: owner.workspaceId, require_two_factor: true }),
      409,
      'two_factor_not_enabled',
    );
  });

  it('a member without a factor is told so everywhere in it but may leave; once they have one they are in; keys and outsiders are as before', async () => {
    const { owner, member, outsider } = await team(services);
    const { key } = await createKey(services, owner);
    const form = await createContactForm(services, owner);
    await setUpApp(owner);
    await (await as(owner.token)).workspaces.update({ workspace_id: owner.workspaceId, require_two_factor: true });
    expect(await auditActions(services, owner.workspaceId, 'workspace.two_factor_requirement_changed')).toEqual([
      expect.objectContaining({ actor_id: owner.userId, data: { from: false, to: true } }),
    ]);

    const asMember = await as(member.token);
    // The workspace is listed, saying what it requires.
    expect((await asMember.workspaces.list({})).data.find((w) => w.id === owner.workspaceId)).toMatchObject({ require_two_factor: true, role: 'member' });
    await expectRefused(asMember.members.list({ workspace_id: owner.workspaceId }), 403, 'two_factor_required');
    await expectRefused(asMember.forms.list({ workspace_id: owner.workspaceId }), 403, 'two_factor_required');
    await expectRefused(asMember.forms.get({ form_id: form.id }), 403, 'two_factor_required');
    await expectRefused(asMember.submissions.list({ form_id: form.id }), 403, 'two_factor_required');
    // An outsider still learns nothing.
    await expectRefused((await as(outsider.token)).members.list({ workspace_id: owner.workspaceId }), 404, 'workspace_not_found');
    await expectRefused((await as(outsider.token)).forms.get({ form_id: form.id }), 404, 'form_not_found');
    // Keys are not people.
    expect((await (await as(key)).forms.get({ form_id: form.id })).id).toBe(form.id);

    await setUpApp(member);
    expect((await (await as(member.token)).members.list({ workspace_id: owner.workspaceId })).data).toHaveLength(2);

    // Turned off again, nobody is asked.
    await (await as(owner.token)).workspaces.update({ workspace_id: owner.workspaceId, require_two_factor: false });
    expect((await (await as(owner.token)).workspaces.list({})).data.find((w) => w.id === owner.workspaceId)?.require_two_factor).toBe(false);
  });

  it('turning it off long after signing in is sudo mode, as turning off your own app is; turning it on or renaming is not', async () => {
    const { owner } = await team(services);
    await setUpApp(owner);
    const ws = owner.workspaceId;
    clock.advance(11 * 60_000);
    await (await as(owner.token)).workspaces.update({ workspace_id: ws, require_two_factor: true, name: 'Guarded' });
    await expectRefused((await as(owner.token)).workspaces.update({ workspace_id: ws, require_two_factor: false }), 403, 'reauthentication_required');
    expect((await (await as(owner.token)).workspaces.list({})).data.find((w) => w.id === ws)).toMatchObject({ name: 'Guarded', require_two_factor: true });
    await (await as(owner.token)).auth.reauthenticate({ password: TEST_PASSWORD });
    await (await as(owner.token)).workspaces.update({ workspace_id: ws, require_two_factor: false });
    expect((await (await as(owner.token)).workspaces.list({})).data.find((w) => w.id === ws)?.require_two_factor).toBe(false);
  });

  it('a member without a factor may still leave it', async () => {
    const { owner, member } = await team(services);
    await setUpApp(owner);
    await (await as(owner.token)).workspaces.update({ workspace_id: owner.workspaceId, require_two_factor: true });
    await (await as(member.token)).members.leave({ workspace_id: owner.workspaceId });
    expect((await (await as(member.token)).workspaces.list({})).data.map((w) => w.id)).not.toContain(owner.workspaceId);
  });
});
