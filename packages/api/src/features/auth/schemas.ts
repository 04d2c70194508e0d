import { MIN_PASSWORD_LENGTH, TEXT_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';
import { email, text, timestamp } from '../../common-schemas.ts';
import { workspace } from '../workspaces/schemas.ts';

export const user = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    email_verified: z.boolean().describe('Whether the person confirmed their address (the link sent at sign-up, or an invitation accepted).'),
    created_at: timestamp,
  })
  .meta({ id: 'User' });

/** Any characters, but whole ones: a lone surrogate would be hashed as U+FFFD, so two passwords would be one. */
export const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Must be at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(1024, 'Must be at most 1024 characters.')
  .refine((value) => value.isWellFormed(), 'Must not contain unpaired surrogates.');

export const signupInput = z.strictObject({ email, password, name: text(TEXT_LIMITS.userName).optional() });
export const signupOutput = z
  .object({ user, workspace, session_token: z.string() })
  .meta({ id: 'SignedUp', description: 'The new account, its personal workspace, and a session token (`lfs_…`).' });

export const loginInput = z.strictObject({ email, password: z.string().max(1024) });
export const loginOutput = z
  .object({ user, session_token: z.string(), expires_at: timestamp })
  .meta({ id: 'NewSession', description: 'A session token (`lfs_…`) for the user, and when it expires unless used.' });

export const sessionOutput = z.object({ user, expires_at: timestamp }).meta({ id: 'Session' });

export const passwordChangeInput = z.strictObject({ current_password: z.string().max(1024), new_password: password });
export const accountDeleteInput = z.strictObject({ password: z.string().max(1024) });
