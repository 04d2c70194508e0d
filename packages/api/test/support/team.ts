import { beforeAll } from 'vitest';
import type { Services } from '../../src/context.ts';
import { seedMembership } from '../../src/testing.ts';
import { type Person, person, testServices } from '../world.ts';
import { createKey } from './keys.ts';

/** Three accounts: an owner, a member of the owner's workspace, and an outsider to it. */
export async function team(services: Services): Promise<{ owner: Person; member: Person; outsider: Person }> {
  const owner = await person(services);
  const member = await person(services);
  const outsider = await person(services);
  await seedMembership(services.db, owner.workspaceId, member.email, 'member');
  return { owner, member, outsider };
}

/** The file's services, its team and a key of the owner's workspace, made by `useTeamWithKey` before the file's tests (live bindings, read at use). */
export let services: Services;
export let owner: Person;
export let member: Person;
export let outsider: Person;
export let key: string;

/** Makes the bindings above before the file's tests: services on `options` (a clock…), the team, then a key made with `keyBody`. */
export function useTeamWithKey(options?: Parameters<typeof testServices>[0], keyBody: Parameters<typeof createKey>[2] = {}): void {
  beforeAll(async () => {
    services = await testServices(options);
    ({ owner, member, outsider } = await team(services));
    key = (await createKey(services, owner, keyBody)).key;
  });
}
