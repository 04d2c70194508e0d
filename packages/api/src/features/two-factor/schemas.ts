import { MAX_PASSKEY_SIGNATURE_CHARS, RECOVERY_CODE_COUNT, SECOND_FACTORS, TEXT_LIMITS } from '@lfk/vocabulary';
import { z } from 'zod';
import { idParam, text, timestamp } from '../../common-schemas.ts';

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

export const passkey = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: timestamp,
    last_used_at: timestamp.nullable(),
  })
  .meta({ id: 'Passkey', description: 'A passkey of your account: a second factor, and a sign-in without a password.' });

export const twoFactorStatus = z
  .object({
    enabled: z.boolean().describe('Whether signing in asks for a second factor (an authenticator app or a passkey).'),
    totp: z.object({ enabled: z.boolean(), enabled_at: timestamp.nullable() }),
    passkeys: z.array(passkey).describe('Oldest first.'),
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
      .describe("Recovery codes, when this is the account's first second factor (shown this once); null when it has its codes already."),
  })
  .meta({ id: 'TotpConfirmed' });

export const recoveryCodesIssued = z.object({ recovery_codes: recoveryCodes }).meta({ id: 'RecoveryCodes' });

/** WebAuthn's binary fields as the browser's JSON writes them. */
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url.');
const credentialFields = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

export const passkeyAssertion = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: base64url(8192),
      authenticatorData: base64url(8192),
      signature: base64url(MAX_PASSKEY_SIGNATURE_CHARS),
      userHandle: base64url(1024).optional(),
    }),
  })
  .meta({ id: 'PasskeyAssertion', description: "What the browser's `navigator.credentials.get()` answered (`PublicKeyCredential.toJSON()`)." });

export const passkeyRegistration = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: base64url(8192),
      // Attestation "none" (all lfk asks for): the credential's public key and little else.
      attestationObject: base64url(8192),
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
  })
  .meta({ id: 'PasskeyRegistration', description: "What the browser's `navigator.credentials.create()` answered (`PublicKeyCredential.toJSON()`)." });

/*
 * WebAuthn options for the browser, as `@simplewebauthn/browser` and `PublicKeyCredential.parse*OptionsFromJSON`
 * take them: WebAuthn Level 3's JSON forms (§5.4, §5.5), member for member as `@simplewebauthn/server`
 * makes them (its types are checked against these where the routers return them), so a generated
 * client types them. Transports are text: a stored passkey's are what its browser said.
 */
const webauthnBinary = z.string().describe('base64url');
const userVerification = z.enum(['discouraged', 'preferred', 'required']);
const hints = z.array(z.enum(['hybrid', 'security-key', 'client-device']));
const credentialDescriptor = z.object({
  id: webauthnBinary,
  type: z.string().describe('`public-key`.'),
  transports: z.array(z.string()).optional().describe('`usb`, `nfc`, `ble`, `internal`, `hybrid`, …'),
});
const extensions = z.object({
  appid: z.string().optional(),
  credProps: z.boolean().optional(),
  hmacCreateSecret: z.boolean().optional(),
  minPinLength: z.boolean().optional(),
  prf: z.unknown().optional(),
});

export const publicKeyCredentialCreationOptions = z
  .object({
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: webauthnBinary, name: z.string(), displayName: z.string() }),
    challenge: webauthnBinary,
    pubKeyCredParams: z.array(z.object({ alg: z.number().int().describe('A COSE algorithm identifier.'), type: z.literal('public-key') })),
    timeout: z.number().optional().describe('Milliseconds.'),
    excludeCredentials: z.array(credentialDescriptor).optional().describe("The account's passkeys: an authenticator holding one makes no second."),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
        requireResidentKey: z.boolean().optional(),
        residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
        userVerification: userVerification.optional(),
      })
      .optional(),
    hints: hints.optional(),
    attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
    attestationFormats: z.array(z.enum(['fido-u2f', 'packed', 'android-safetynet', 'android-key', 'tpm', 'apple', 'none'])).optional(),
    extensions: extensions.optional(),
  })
  .meta({
    id: 'PublicKeyCredentialCreationOptionsJSON',
    description: 'For `navigator.credentials.create()` (`PublicKeyCredential.parseCreationOptionsFromJSON`).',
  });

export const publicKeyCredentialRequestOptions = z
  .object({
    challenge: webauthnBinary,
    timeout: z.number().optional().describe('Milliseconds.'),
    rpId: z.string().optional(),
    allowCredentials: z
      .array(credentialDescriptor)
      .optional()
      .describe('The passkeys that may answer; none: any of this site (a sign-in with a passkey alone).'),
    userVerification: userVerification.optional(),
    hints: hints.optional(),
    extensions: extensions.optional(),
  })
  .meta({ id: 'PublicKeyCredentialRequestOptionsJSON', description: 'For `navigator.credentials.get()` (`PublicKeyCredential.parseRequestOptionsFromJSON`).' });

export const passkeyRegistrationOptions = z
  .object({ options: publicKeyCredentialCreationOptions.describe('For `navigator.credentials.create()`; valid 5 minutes.') })
  .meta({ id: 'PasskeyRegistrationOptions' });

export const passkeyAssertionOptions = z
  .object({ options: publicKeyCredentialRequestOptions.describe('For `navigator.credentials.get()`; valid 5 minutes.') })
  .meta({ id: 'PasskeyAssertionOptions' });

export const passkeyName = text(TEXT_LIMITS.passkeyName).describe('A name to tell it by ("MacBook Touch ID", "YubiKey").');

export const passkeyAddInput = z.strictObject({ name: passkeyName, credential: passkeyRegistration });
export const passkeyAdded = z
  .object({
    passkey,
    recovery_codes: recoveryCodes.nullable().describe("Recovery codes, when this is the account's first second factor (shown this once)."),
  })
  .meta({ id: 'PasskeyAdded' });
export const passkeyIdInput = z.object({ passkey_id: idParam });
export const passkeyRenameInput = z.strictObject({ passkey_id: idParam, name: passkeyName });

const exactlyOne = (input: Record<string, unknown>, names: string[]) => names.filter((n) => input[n] !== undefined).length === 1;

/** Exactly one way to complete: a code, a recovery code, or a passkey. */
export const secondFactorInput = z
  .strictObject({
    challenge: z.string().max(100).describe('The `challenge` (`lfm_…`) of the `second_factor_required` answer to the sign-in.'),
    code: totpCode.optional(),
    recovery_code: recoveryCode.optional(),
    passkey: passkeyAssertion.optional().describe('The assertion made with the `passkey_options` of the `second_factor_required` answer.'),
  })
  .refine((input) => exactlyOne(input, ['code', 'recovery_code', 'passkey']), { message: 'Send exactly one of code, recovery_code or passkey.' });

/** A sign-in with a passkey alone. */
export const passkeyLoginInput = z.strictObject({
  passkey: passkeyAssertion.describe('The assertion made with the options of `POST /v1/auth/login/passkey/options`.'),
});

/** Exactly one way to prove who you are again. */
export const reauthenticateInput = z
  .strictObject({
    password: z.string().max(1024).optional(),
    code: totpCode.optional(),
    passkey: passkeyAssertion.optional().describe('The assertion made with the options of `POST /v1/auth/reauthenticate/options`.'),
  })
  .refine((input) => exactlyOne(input, ['password', 'code', 'passkey']), { message: 'Send exactly one of password, code or passkey.' });
