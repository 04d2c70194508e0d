import { generate } from 'otplib';

/**
 * What an authenticator app shows for `secret` `steps` time steps (30 s each) from `at`: a test
 * makes the code it needs. A server on the real clock takes a code one step ahead, once, and no
 * code of an earlier step after it; so after setting the app up with the current code, a test
 * signs in with `steps = 1`, and so on.
 */
export function authenticatorCode(secret: string, steps = 0, at: Date = new Date()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000) + steps * 30 });
}
