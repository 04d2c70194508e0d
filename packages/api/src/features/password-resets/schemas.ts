import { z } from 'zod';
import { email } from '../../common-schemas.ts';
import { password } from '../auth/schemas.ts';

export const passwordResetRequestInput = z.strictObject({ email });
export const passwordResetRequested = z
  .object({ message: z.string() })
  .meta({ id: 'PasswordResetRequested', description: 'The same answer whatever the address: whether it has an account is never told.' });

/** The token from a reset link; any string, since a token of the wrong shape is simply not found. */
export const passwordResetTokenInput = z.object({ token: z.string() });
export const passwordResetLink = z.object({ email: z.string() });
export const passwordResetInput = z.strictObject({ token: z.string(), password });
/** The body of `POST /v1/auth/password-resets/{token}`, as JSON or as the page's form post. */
export const passwordResetBody = z.strictObject({ password });
