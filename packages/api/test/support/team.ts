import type { Services } from '../../src/context.ts';
import { seedMembership } from '../../src/testing.ts';
import { type Person, person } from '../world.ts';

/** Three accounts: an owner, a member of the owner's workspace, and an outsider to it. */
export async function team(services: Services): Promise<{ owner: Person; member: Person; outsider: Person }> {
  const owner = await person(services);
  const member = await person(services);
  const outsider = await person(services);
  await seedMembership(services.db, owner.workspaceId, member.email, 'member');
  return { owner, member, outsider };
}
