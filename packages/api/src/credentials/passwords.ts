import { type Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
// (`Algorithm` is an ambient const enum; 2 is its Argon2id.)
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against the stored hash, or against a throwaway one when there is no such user, so a
 * login for an unknown email takes as long as one with a wrong password.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('not a password of anyone');
    await verify(await dummyHash, password);
    return false;
  }
  return verify(storedHash, password);
}
