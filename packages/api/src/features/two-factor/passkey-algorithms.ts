import { COSEALG } from '@simplewebauthn/server/helpers';

/**
 * The signature algorithms lfk offers a new passkey, most preferred first (an authenticator takes
 * the first it can), each with the longest signature it makes. One list: the registration options
 * offer exactly these, a registration with another is refused, and an assertion's `signature` is
 * sized for the longest of them, so a passkey lfk accepts can always be used afterwards (Chromium
 * takes ML-DSA-44 when offered, whose signature is 2,420 bytes).
 */
export const PASSKEY_ALGORITHMS = [
  { id: COSEALG.ML_DSA_44, name: 'ML-DSA-44', maxSignatureBytes: 2420 },
  { id: COSEALG.EdDSA, name: 'Ed25519', maxSignatureBytes: 64 },
  // DER-encoded: two 33-byte integers and their headers.
  { id: COSEALG.ES256, name: 'ES256', maxSignatureBytes: 72 },
  // A 4096-bit RSA key's signature; longer keys are rare and refused.
  { id: COSEALG.RS256, name: 'RS256', maxSignatureBytes: 512 },
] as const;

export const PASSKEY_ALGORITHM_IDS: COSEALG[] = PASSKEY_ALGORITHMS.map((a) => a.id);

/** The longest assertion signature, as base64url characters. */
export const MAX_PASSKEY_SIGNATURE_CHARS = Math.ceil((Math.max(...PASSKEY_ALGORITHMS.map((a) => a.maxSignatureBytes)) * 4) / 3);
