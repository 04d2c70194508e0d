/**
 * Deleting a workspace (owners, typing its name, `workspaces.delete`) takes everything in it: its
 * keys stop at once, its forms and submissions go; what races it answers its own refusal, never an
 * internal error. The route and its 204 are the REST table's.
 */
import { ENGINE } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { count, sql } from '../../../test/support/database.ts';
import { linkTokenTo } from '../../../test/support/emails.ts';
import { createForm } from '../../../test/support/forms.ts';
import { createKey } from '../../../test/support/keys.ts';
import { expectRefused, outcome } from '../../../test/support/refusals.ts';
import { team } from '../../../test/support/team.ts';
import { heldBy, workspaceName } from '../../../test/support/workspaces.ts';
import { callerFor, person, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

const as = (token: string) => callerFor(services, token);
const deleteWorkspace = async (token: string, ws: string, confirm: unknown) => (await as(token)).workspaces.delete({ workspace_id: ws, confirm } as never);
const EMAIL_FORM = { name: 'Leads', schema: [{ name: 'email', type: 'email' }] };
const createFormWith = async (key: string) => (await as(key)).forms.create(EMAIL_FORM as never);
/** An outcome's status alone (`done`, `404`…), for answers that may be refused by more than one rule. */
const statusOf = (result: string) => result.split(' ')[0];

describe(`deleting a workspace (${ENGINE})`, () => {
  it('typing its name deletes it with its keys, forms, submissions, members and invitations; its key is refused at once', async () => {
    const { owner, member } = await team(services);
    const { key } = await createKey(services, owner);
    const form = await createForm(services, key, EMAIL_FORM);
    for (let i = 0; i < 3; i++) await (await as(key)).submissions.create({ form_id: form.id, data: { email: `x${i}@example.org` } });
    await (await as(owner.token)).invitations.create({ workspace_id: owner.workspaceId, email: 'invited@example.com' });
    const name = await workspaceName(services, owner.workspaceId);

    const wrong = await expectRefused(deleteWorkspace(owner.token, owner.workspaceId, `${name} `), 400, 'invalid_request');
    expect(wrong.details).toEqual([{ path: 'confirm', message: "Must be the workspace's name, exactly as it is written." }]);
    await expectRefused(deleteWorkspace(member.token, owner.workspaceId, name), 403, 'owner_required');
    await expectRefused(deleteWorkspace(key, owner.workspaceId, name), 403, 'session_required');
    expect(await (await as(key)).forms.get({ form_id: form.id })).toMatchObject({ id: form.id });

    await deleteWorkspace(owner.token, owner.workspaceId, name);
    await expectRefused((await as(key)).forms.get({ form_id: form.id }), 401, 'invalid_api_key');
    await expectRefused((await as(member.token)).members.list({ workspace_id: owner.workspaceId }), 404, 'workspace_not_found');
    await expectRefused((await as(owner.token)).members.list({ workspace_id: owner.workspaceId }), 404, 'workspace_not_found');
    expect(await heldBy(services, owner.workspaceId)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await count(services, 'submissions where form_id = ?', [form.id])).toBe(0);
    // The people stay: the workspace was theirs, not them.
    expect((await (await as(member.token)).auth.session()).user.id).toBe(member.userId);
    expect((await (await as(owner.token)).workspaces.list({})).data).toEqual([]);
  });

  it('a key in use while its workspace is deleted: every answer is the form, 401 or 404, never a 500, and nothing is left', async () => {
    const owner = await person(services);
    const { key } = await createKey(services, owner);
    const name = await workspaceName(services, owner.workspaceId);
    const creations = Array.from({ length: 12 }, () => outcome(createFormWith(key)));
    const deleted = deleteWorkspace(owner.token, owner.workspaceId, name);
    const answers = await Promise.all(creations);
    await deleted;
    for (const answer of answers) expect(['done', '401 invalid_api_key', '404 workspace_not_found']).toContain(answer);
    expect(await heldBy(services, owner.workspaceId)).toEqual([0, 0, 0, 0, 0, 0]);
    await expectRefused(createFormWith(key), 401, 'invalid_api_key');
  });
});

describe(`deleting a workspace, against what races it (${ENGINE})`, () => {
  it('two owners deleting it at once: one deletes it, the other is told 404 workspace_not_found', async () => {
    const { owner, member } = await team(services);
    await sql(services, "update memberships set role = 'owner' where user_id = ?", [member.userId]);
    const name = await workspaceName(services, owner.workspaceId);
    const answers = await Promise.all([
      outcome(deleteWorkspace(owner.token, owner.workspaceId, name)),
      outcome(deleteWorkspace(member.token, owner.workspaceId, name)),
    ]);
    expect(answers.sort()).toEqual(['404 workspace_not_found', 'done']);
  });

  it('an invitation accepted, a form changed, a key revoked and a rename, all while it is deleted: each answers its own refusal, never a 500', async () => {
    for (let round = 0; round < 3; round++) {
      const owner = await person(services);
      const invitee = await person(services);
      const { key, id: keyId } = await createKey(services, owner);
      const form = await createForm(services, key, { name: 'Busy', schema: [{ name: 'email', type: 'email' }] });
      await (await as(owner.token)).invitations.create({ workspace_id: owner.workspaceId, email: invitee.email });
      const token = await linkTokenTo(services, invitee.email, 'invitation');
      const name = await workspaceName(services, owner.workspaceId);
      // Each call with a context of its own, as each request has.
      const [accepted, patched, revoked, renamed, deleted] = await Promise.all([
        outcome(as(invitee.token).then((caller) => caller.invitations.accept({ token }))),
        outcome(as(owner.token).then((caller) => caller.forms.update({ form_id: form.id, name: 'Busier' }))),
        outcome(as(owner.token).then((caller) => caller.apiKeys.revoke({ workspace_id: owner.workspaceId, key_id: keyId }))),
        outcome(as(owner.token).then((caller) => caller.workspaces.update({ workspace_id: owner.workspaceId, name: 'Renamed' }))),
        outcome(deleteWorkspace(owner.token, owner.workspaceId, name)),
      ]);
      expect(['done', '404'], accepted).toContain(statusOf(accepted));
      expect(['done', '404'], patched).toContain(statusOf(patched));
      expect(['done', '404'], revoked).toContain(statusOf(revoked));
      expect(['done', '404'], renamed).toContain(statusOf(renamed));
      // The rename may win the race, and the typed name is then stale: 400 on confirm, nothing deleted.
      expect(['done', '400'], deleted).toContain(statusOf(deleted));
      if (deleted === 'done') expect(await heldBy(services, owner.workspaceId)).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });

  it("its keys' uses still waiting to be written are dropped; other keys' uses are written", async () => {
    const doomed = await person(services);
    const kept = await person(services);
    const { key: doomedKey } = await createKey(services, doomed);
    const { key: keptKey, id: keptId } = await createKey(services, kept);
    await createFormWith(doomedKey);
    await deleteWorkspace(doomed.token, doomed.workspaceId, await workspaceName(services, doomed.workspaceId));
    await createFormWith(keptKey);
    await services.keyUses.flush();
    expect(await count(services, 'api_key_usage where key_id = ?', [keptId])).toBe(1);
    // And the next flush has nothing of the deleted key left to retry.
    await createFormWith(keptKey);
    await services.keyUses.flush();
    expect((await sql<{ requests: number }>(services, 'select requests from api_key_usage where key_id = ?', [keptId]))[0]!.requests).toBe(2);
  });
});
