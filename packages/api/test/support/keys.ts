import type { Services } from '../../src/context.ts';
import type { RouterInputs, RouterOutputs } from '../../src/root.ts';
import { callerFor } from '../world.ts';

export type Owner = { token: string; workspaceId: string };

/** A new key of `owner`'s workspace, made with `owner`'s session: its plaintext, its id, and the whole answer. */
export async function createKey(
  services: Services,
  owner: Owner,
  body: Omit<RouterInputs['apiKeys']['create'], 'workspace_id'> = {},
): Promise<{ key: string; id: string; json: RouterOutputs['apiKeys']['create'] }> {
  const json = await (await callerFor(services, owner.token)).apiKeys.create({ workspace_id: owner.workspaceId, ...body });
  return { key: json.key, id: json.id, json };
}
