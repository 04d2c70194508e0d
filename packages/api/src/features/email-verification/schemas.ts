import { z } from 'zod';

/** The token from a verification link; any string, since a token of the wrong shape is simply not found. */
export const emailVerificationInput = z.object({ token: z.string() });
/** What a link verifies: an address, for a form's notifications (`form`) or as an account's own (`form` null). */
export const emailVerified = z.object({
  email: z.string(),
  form: z.object({ id: z.string(), name: z.string() }).nullable(),
});

/** A new link went out; the address is masked (`a***@example.com`). */
export const verificationSent = z.object({ sent_to: z.string() }).meta({ id: 'VerificationSent' });
