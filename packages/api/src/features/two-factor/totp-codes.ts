import { User } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { SecretBox } from '../../credentials/secret-box.ts';
import { stepOfCode } from './totp.ts';

/** Where a TOTP secret is sealed for: its account, so a sealed secret copied to another row does not open. */
export const totpSealContext = (userId: string) => `totp ${userId}`;

/**
 * Whether `code` is the account's authenticator code now (within a step of drift), taking its
 * time step: a code works once, and no code of an earlier step after it.
 */
export async function takeTotpCode(em: EntityManager, box: SecretBox, userId: string, code: string, now: Date): Promise<boolean> {
  const users = em.getRepository(User);
  const totp = await users.totpOf(userId);
  if (!totp) return false;
  const step = await stepOfCode(box.open(totp.secretSealed, totpSealContext(userId)), code, now);
  return step !== null && (await users.takeTotpStep(userId, step));
}
