/**
 * How long a workspace's file links live (`workspaces.update` with `file_link_ttl`, owners): set,
 * read back on the workspace, put back to the server's (null), audited; out of range refused with
 * words a person reads beside the field. The dashboard's workspace settings set it.
 */
import { ENGINE } from '@lfk/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../context.ts';
import { auditActions } from '../../../test/support/database.ts';
import { expectRefused } from '../../../test/support/refusals.ts';
import { team } from '../../../test/support/team.ts';
import { callerFor, testServices } from '../../../test/world.ts';

let services: Services;
beforeAll(async () => {
  services = await testServices();
});

const setTtl = async (token: string, workspaceId: string, ttl: unknown) =>
  (await callerFor(services, token)).workspaces.update({ workspace_id: workspaceId, file_link_ttl: ttl } as never);
const ttlSeenBy = async (token: string, workspaceId: string) =>
  (await (await callerFor(services, token)).workspaces.list({})).data.find((w) => w.id === workspaceId)?.file_link_ttl;

describe(`a workspace's file link lifetime (${ENGINE})`, () => {
  it('an owner sets it and puts it back to the server default; members read it; only owners change it', async () => {
    const { owner, member } = await team(services);
    const ws = owner.workspaceId;
    expect(await ttlSeenBy(member.token, ws)).toBeNull();

    await setTtl(owner.token, ws, 3600);
    expect(await ttlSeenBy(member.token, ws)).toBe(3600);
    await expectRefused(setTtl(member.token, ws, 60), 403, 'owner_required');
    await setTtl(owner.token, ws, null);
    expect(await ttlSeenBy(owner.token, ws)).toBeNull();
    expect((await auditActions(services, ws, 'workspace.file_link_ttl_changed')).map((e) => e.data)).toEqual([
      { from: null, to: 3600 },
      { from: 3600, to: null },
    ]);
  });

  it('below a minute or above 30 days is refused, saying the bounds', async () => {
    const { owner } = await team(services);
    const short = await expectRefused(setTtl(owner.token, owner.workspaceId, 59), 400, 'invalid_request', { paths: ['file_link_ttl'] });
    expect(short.details?.[0]?.message).toBe('Must be at least 60 seconds (a minute).');
    const long = await expectRefused(setTtl(owner.token, owner.workspaceId, 30 * 86_400 + 1), 400, 'invalid_request', { paths: ['file_link_ttl'] });
    expect(long.details?.[0]?.message).toBe('Must be at most 2592000 seconds (30 days).');
    expect(await ttlSeenBy(owner.token, owner.workspaceId)).toBeNull();
  });
});
