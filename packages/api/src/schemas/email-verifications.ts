import { z } from 'zod';

/** The token from a verification link. */
export const emailVerificationInput = z.object({ token: z.string().max(200) });
export const emailVerified = z.object({ form_id: z.string(), form_name: z.string(), email: z.string() });
