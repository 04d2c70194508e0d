import { RECOVERY_CODE_COUNT, SECOND_FACTORS } from '@lfk/vocabulary';
import { z } from 'zod';
import { timestamp } from '../../common-schemas.ts';

/** Six digits, as the app shows them (spaces allowed: "123 456"). */
export const totpCode = z
  .string()
  .max(20)
  .transform((typed) => typed.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Must be the 6 digits the authenticator app shows.'))
  .describe('The 6-digit code the authenticator app shows now.');

export const recoveryCode = z.string().min(1).max(64).describe('One of the recovery codes (`xxxx-xxxx-xxxx`), as written down.');

export const recoveryCodes = z
  .array(z.string())
  .length(RECOVERY_CODE_COUNT)
  .describe(`${RECOVERY_CODE_COUNT} single-use codes, each a second factor for when the others are lost. Shown this once: lfk keeps only their hashes.`);

export const secondFactor = z.enum(SECOND_FACTORS).meta({ id: 'SecondFactor' });

export const twoFactorStatus = z
  .object({
    enabled: z.boolean().describe('Whether signing in asks for a second factor (an authenticator app or a passkey).'),
    totp: z.object({ enabled: z.boolean(), enabled_at: timestamp.nullable() }),
    recovery_codes: z.object({ remaining: z.number().int().describe('Unused recovery codes left.') }),
  })
  .meta({ id: 'TwoFactorStatus', description: "The signed-in person's second factors." });

export const totpEnrolment = z
  .object({
    secret: z.string().describe('The shared secret (base32), to type into the app when the QR code cannot be scanned.'),
    otpauth_url: z.string().describe('The `otpauth://` URL to show as a QR code.'),
    expires_at: timestamp.describe('Confirm with a first code before this, or start again.'),
  })
  .meta({ id: 'TotpEnrolment', description: 'An authenticator app being set up: not in force until a first code confirms it.' });

export const totpConfirmInput = z.strictObject({ code: totpCode });
export const totpConfirmed = z
  .object({
    recovery_codes: recoveryCodes
      .nullable()
      .describe('Recovery codes, when this is the account\'s first second factor (shown this once); null when it has its codes already.'),
  })
  .meta({ id: 'TotpConfirmed' });

export const recoveryCodesIssued = z.object({ recovery_codes: recoveryCodes }).meta({ id: 'RecoveryCodes' });

/** Exactly one way to complete: a code, or a recovery code. */
export const secondFactorInput = z
  .strictObject({
    challenge: z.string().max(100).describe('The `challenge` (`lfm_…`) of the `second_factor_required` answer to the sign-in.'),
    code: totpCode.optional(),
    recovery_code: recoveryCode.optional(),
  })
  .refine((input) => [input.code, input.recovery_code].filter((v) => v !== undefined).length === 1, {
    message: 'Send exactly one of code or recovery_code.',
  });

/** Exactly one way to prove who you are again. */
export const reauthenticateInput = z
  .strictObject({
    password: z.string().max(1024).optional(),
    code: totpCode.optional(),
  })
  .refine((input) => [input.password, input.code].filter((v) => v !== undefined).length === 1, {
    message: 'Send exactly one of password or code.',
  });
