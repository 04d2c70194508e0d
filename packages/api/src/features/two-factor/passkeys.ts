import { Passkey, type StoredPasskey } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Services } from '../../context.ts';
import { PASSKEY_ALGORITHM_IDS } from '@lfk/vocabulary';

/**
 * The WebAuthn library and the certificate parsers under it, about 290 modules, a sixth of the
 * server's: loaded by the first ceremony, not by every start (issue 52).
 */
const webauthn = () => import('@simplewebauthn/server');
const webauthnHelpers = () => import('@simplewebauthn/server/helpers');

/**
 * Who lfk is to an authenticator: its public URL's host is the RP ID (a passkey made for one host
 * never signs for another), and its origin the only one an assertion may come from.
 */
export function relyingParty(services: Pick<Services, 'publicUrl'>) {
  const url = new URL(services.publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'lfk' };
}

/**
 * What a response to a ceremony is checked against, registering or asserting alike: the challenge
 * it was given, this origin and RP ID; user verification is preferred, never required.
 */
function expectedOf(services: Pick<Services, 'publicUrl'>, expectedChallenge: string) {
  const rp = relyingParty(services);
  return { expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false };
}

/** How long an authenticator is given, as its options tell the browser. */
const CEREMONY_TIMEOUT_MS = 5 * 60_000;

/** Options for a new passkey of this person: their existing ones excluded, so one is not registered twice. */
export async function registrationOptions(
  em: EntityManager,
  services: Pick<Services, 'publicUrl'>,
  user: { id: string; email: string; name?: string | null },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(services);
  const existing = await em.getRepository(Passkey).credentialsOf(user.id);
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    userID: new TextEncoder().encode(user.id),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    supportedAlgorithmIDs: PASSKEY_ALGORITHM_IDS,
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    // A discoverable credential, so it can also sign in without a password.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
}

/** The new credential, if the response answers the challenge from this origin and RP ID; null otherwise. */
export async function verifiedRegistration(services: Pick<Services, 'publicUrl'>, response: RegistrationResponseJSON, expectedChallenge: string) {
  const [{ verifyRegistrationResponse }, { isoBase64URL }] = await Promise.all([webauthn(), webauthnHelpers()]);
  try {
    const result = await verifyRegistrationResponse({ response, ...expectedOf(services, expectedChallenge), supportedAlgorithmIDs: PASSKEY_ALGORITHM_IDS });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
    };
  } catch {
    // Malformed, or signed for another challenge, origin or RP ID: the same refusal.
    return null;
  }
}

/** Options for an assertion: by one of `passkeys` (a second factor), or by any passkey of this site (a sign-in without a password). */
export async function assertionOptions(
  services: Pick<Services, 'publicUrl'>,
  passkeys: StoredPasskey[] | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: relyingParty(services).id,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'preferred',
    ...(passkeys ? { allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })) } : {}),
  });
}

/** The challenge an assertion signed, as the browser wrote it; null when it cannot be read. */
export async function challengeSignedBy(response: AuthenticationResponseJSON): Promise<string | null> {
  const { isoBase64URL } = await webauthnHelpers();
  try {
    const clientData = JSON.parse(isoBase64URL.toUTF8String(response.response.clientDataJSON)) as { challenge?: unknown };
    return typeof clientData.challenge === 'string' ? clientData.challenge : null;
  } catch {
    return null;
  }
}

/**
 * The passkey that made this assertion, once it is checked: the expected challenge, this origin
 * and RP ID, a good signature by a passkey of `userId` (any account's, when null), and a counter
 * that went up (recorded at once, so a replay or a clone is refused). Null when any of it fails.
 */
export async function verifiedAssertion(
  em: EntityManager,
  services: Pick<Services, 'publicUrl' | 'now'>,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  userId: string | null,
): Promise<StoredPasskey | null> {
  const passkeys = em.getRepository(Passkey);
  const passkey = typeof response?.id === 'string' ? await passkeys.findByCredentialId(response.id) : null;
  if (!passkey || (userId !== null && passkey.userId !== userId)) return null;
  const [{ verifyAuthenticationResponse }, { isoBase64URL }] = await Promise.all([webauthn(), webauthnHelpers()]);
  try {
    const result = await verifyAuthenticationResponse({
      response,
      ...expectedOf(services, expectedChallenge),
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
    });
    if (!result.verified) return null;
    return (await passkeys.used(passkey.id, result.authenticationInfo.newCounter, services.now())) ? passkey : null;
  } catch {
    return null;
  }
}
