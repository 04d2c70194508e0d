/**
 * A workspace renamed by an owner (`workspaces.update`), on both engines. The route and its 204 are
 * the REST table's.
 */
import { ENGINE } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { sql } from '../../../test/support/database.ts';
import { expectRefused } from '../../../test/support/refusals.ts';
import { team } from '../../../test/support/team.ts';
import { callerFor, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

const rename = async (token: string, workspaceId: string, name: unknown) =>
  (await callerFor(services, token)).workspaces.update({ workspace_id: workspaceId, name } as never);

describe(`workspace names (${ENGINE})`, () => {
  it('an owner renames the workspace; members see the new name; others cannot', async () => {
    const { owner, member, outsider } = await team(services);
    const ws = owner.workspaceId;
    const before = (await sql<{ name: string }>(services, 'select name from workspaces where id = ?', [ws]))[0]!.name;
    await rename(owner.token, ws, '  Acme Forms  ');
    const listed = await (await callerFor(services, member.token)).workspaces.list({});
    expect(listed.data.find((w) => w.id === ws)).toMatchObject({ name: 'Acme Forms', role: 'member' });

    await expectRefused(rename(member.token, ws, 'Mine'), 403, 'owner_required');
    await expectRefused(rename(outsider.token, ws, 'Mine'), 404, 'workspace_not_found');
    for (const name of ['', '   ', 'x'.repeat(101), 'two\nlines', 42]) {
      const error = await expectRefused(rename(owner.token, ws, name), 400, 'invalid_request', { what: String(name) });
      expect(error.details?.[0]?.path).toBe('name');
    }
    const { data } = await (await callerFor(services, owner.token)).auditEvents.list({ workspace_id: ws });
    expect(data.filter((e) => e.action === 'workspace.renamed').map((e) => e.data)).toEqual([{ from: before, to: 'Acme Forms' }]);
  });
});
