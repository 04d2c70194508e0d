import { randomInt } from 'node:crypto';
import { RecoveryCode } from '@lfk/db';
import { RECOVERY_CODE_COUNT } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import type { SecretBox } from '../../credentials/secret-box.ts';

/** Crockford's base32, lower case: no i, l, o or u to misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 12 characters, 60 bits: shown as `xxxx-xxxx-xxxx`. */
const LENGTH = 12;

const newCode = () => {
  const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
};

/** What a person typed, as it was issued: case, spaces and dashes do not matter, nor i/l for 1 and o for 0. */
function normalised(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/** Keyed by `LFK_SECRET_KEY` and bound to the account: the table alone cannot be guessed against. */
const hashOf = (box: SecretBox, userId: string, code: string) => box.mac(code, `recovery code ${userId}`);

/** New codes for the account in place of all its earlier ones: the plaintext, to show once. */
export async function issueRecoveryCodes(em: EntityManager, box: SecretBox, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await em.getRepository(RecoveryCode).replaceFor(
    userId,
    codes.map((code) => hashOf(box, userId, normalised(code)!)),
    now,
  );
  return codes;
}

/** Spends the code if it is one of the account's unused ones: true once, whoever else tries it at the same time. */
export async function spendRecoveryCode(em: EntityManager, box: SecretBox, userId: string, typed: string, now: Date): Promise<boolean> {
  const code = normalised(typed);
  return code !== null && (await em.getRepository(RecoveryCode).spend(userId, hashOf(box, userId, code), now));
}
