import {
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';

/**
 * Passkeys in this browser (WebAuthn, through @simplewebauthn/browser): the server sends the
 * options, the browser asks the person's device, and what the device signed goes back to the
 * server. A passkey belongs to one host name (the RP ID: the host of the server's public URL),
 * and browsers refuse an IP address as one: a dashboard opened at `http://127.0.0.1:3000` cannot
 * use passkeys, so it does not offer them there.
 */

/** Whether the host is an IP address (`127.0.0.1`, `[::1]`), which no passkey can belong to. */
function isIpAddress(hostname: string): boolean {
  return hostname.startsWith('[') || hostname.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Whether this page can use passkeys: a browser with WebAuthn (only in a secure context: https,
 * or http on localhost), at a domain name.
 */
export function passkeysWorkHere(): boolean {
  return typeof window.PublicKeyCredential === 'function' && !isIpAddress(window.location.hostname);
}

/** The ceremony in the browser did not give a passkey: cancelled, timed out, refused. Its message is for people. */
export class PasskeyNotUsed extends Error {
  override name = 'PasskeyNotUsed';
}

/** What the browser's refusal means to the person, in words. */
function ceremonyFailure(error: unknown, making: boolean): PasskeyNotUsed {
  const code = error instanceof WebAuthnError ? error.code : null;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return new PasskeyNotUsed('This device already holds a passkey of your account for lfk: it is in your list. Use another device or security key.');
  }
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') {
    return new PasskeyNotUsed(
      'Passkeys work only at the address this server is configured with (its LFK_PUBLIC_URL), at a domain name: open the dashboard there, then try again.',
    );
  }
  return new PasskeyNotUsed(
    making
      ? 'No passkey was made: the request was cancelled, timed out, or your device refused it. Try again when you are ready.'
      : 'No passkey was used: the request was cancelled, timed out, or no passkey of this account is on this device. Try again, or use another way.',
  );
}

/** What the browser answered, as the API's input takes it (its extension results a plain record). */
type AsSent<T extends { clientExtensionResults: object }> = Omit<T, 'clientExtensionResults'> & { clientExtensionResults: Record<string, unknown> };

/** Makes a passkey on the person's device with the server's options. */
export async function makePasskey(options: Record<string, unknown>): Promise<AsSent<RegistrationResponseJSON>> {
  let made: RegistrationResponseJSON;
  try {
    made = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  } catch (error) {
    throw ceremonyFailure(error, true);
  }
  return { ...made, clientExtensionResults: { ...made.clientExtensionResults } };
}

/** Signs the server's challenge with one of the person's passkeys. */
export async function signWithPasskey(options: Record<string, unknown>): Promise<AsSent<AuthenticationResponseJSON>> {
  let signed: AuthenticationResponseJSON;
  try {
    signed = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  } catch (error) {
    throw ceremonyFailure(error, false);
  }
  return { ...signed, clientExtensionResults: { ...signed.clientExtensionResults } };
}
