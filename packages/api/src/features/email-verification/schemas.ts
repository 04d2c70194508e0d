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

/** New links went out to a form's addresses not verified yet, masked. */
export const formVerificationSent = verificationSent
  .extend({
    sent_to: z.string().describe('The first address a link went to.'),
    sent_to_all: z.array(z.string()).describe('Every address a link went to: each of the form’s addresses not verified yet.'),
  })
  .meta({ id: 'FormVerificationSent' });
