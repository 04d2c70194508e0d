import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 seconds. */
const PERIOD_S = 30;

/** A new shared secret: 20 random bytes, base32, as apps take it typed or from a QR code. */
export const newTotpSecret = (): string => generateSecret();

/** The `otpauth://` URL a QR code carries: the app names the account by its address, under "lfk". */
export const otpauthUrl = (secret: string, email: string): string => generateURI({ issuer: 'lfk', label: email, secret });

/**
 * The time step `code` is the code of, from the step before `now` to the one after (a clock one
 * step off still works); null when it is none of them. Taking the step once is the caller's part.
 */
export async function stepOfCode(secret: string, code: string, now: Date): Promise<number | null> {
  const result = await verify({ secret, token: code, epoch: Math.floor(now.getTime() / 1000), epochTolerance: PERIOD_S });
  // TOTP's result names its step (HOTP's, the other half of the union, does not).
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
