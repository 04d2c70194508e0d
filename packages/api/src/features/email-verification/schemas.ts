import { z } from 'zod';

/** The token from a verification link; any string, since a token of the wrong shape is simply not found. */
export const emailVerificationInput = z.object({ token: z.string() });
export const emailVerified = z.object({ form_id: z.string(), form_name: z.string(), email: z.string() });
