import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** One credential the authenticator holds. */
export interface HeldPasskey {
  id: string;
  privateKey: KeyObject;
  algorithm: PasskeyAlgorithm;
  rpId: string;
  /** Its signature counter: each assertion counts it up. */
  counter: number;
  userHandle: string;
}

/** Where a ceremony claims to happen: its origin and RP ID, the options' own unless a test lies about them. */
export interface Ceremony {
  origin?: string;
  rpId?: string;
}

type Bytes = Uint8Array;
const b64url = (bytes: Bytes | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Bytes | string) => createHash('sha256').update(data).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** COSE algorithms this authenticator can make: ES256, Ed25519, RS256, ML-DSA-44, ES384. */
export const PASSKEY_TEST_ALGORITHMS = [-7, -8, -257, -48, -35] as const;
export type PasskeyAlgorithm = (typeof PASSKEY_TEST_ALGORITHMS)[number];

/** The digest each algorithm signs with (null: the algorithm hashes, or not, by itself). */
const DIGEST: Record<PasskeyAlgorithm, string | null> = { [-7]: 'sha256', [-8]: null, [-257]: 'sha256', [-48]: null, [-35]: 'sha384' };

const fromJwk = (value: string | undefined) => Buffer.from(value!, 'base64url');

/** A new key pair, and its public key as COSE writes it (RFC 9053; ML-DSA's "AKP" key type). */
function newKeyPair(algorithm: PasskeyAlgorithm): { privateKey: KeyObject; coseKey: Map<number, number | Bytes> } {
  switch (algorithm) {
    case -7:
    case -35: {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: algorithm === -7 ? 'P-256' : 'P-384' });
      const jwk = publicKey.export({ format: 'jwk' });
      const curve = algorithm === -7 ? 1 : 2;
      return {
        privateKey,
        coseKey: new Map<number, number | Bytes>([
          [1, 2],
          [3, algorithm],
          [-1, curve],
          [-2, fromJwk(jwk.x)],
          [-3, fromJwk(jwk.y)],
        ]),
      };
    }
    case -8: {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      return {
        privateKey,
        coseKey: new Map<number, number | Bytes>([
          [1, 1],
          [3, -8],
          [-1, 6],
          [-2, fromJwk(publicKey.export({ format: 'jwk' }).x)],
        ]),
      };
    }
    case -257: {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const jwk = publicKey.export({ format: 'jwk' });
      return {
        privateKey,
        coseKey: new Map<number, number | Bytes>([
          [1, 3],
          [3, -257],
          [-1, fromJwk(jwk.n)],
          [-2, fromJwk(jwk.e)],
        ]),
      };
    }
    case -48: {
      const { privateKey, publicKey } = generateKeyPairSync('ml-dsa-44');
      return {
        privateKey,
        coseKey: new Map<number, number | Bytes>([
          [1, 7],
          [3, -48],
          [-1, fromJwk((publicKey.export({ format: 'jwk' }) as { pub?: string }).pub)],
        ]),
      };
    }
  }
}

/**
 * A software authenticator that does what a platform authenticator does, by WebAuthn's rules:
 * a key pair per credential in the first algorithm offered that it makes (attestation "none"), authenticator data with the RP ID's hash
 * and a signature counter, and real signatures over the client data. For the API's tests, where
 * no browser runs; the dashboard's tests use Chromium's virtual authenticator instead.
 */
export class PasskeyAuthenticator {
  readonly held: HeldPasskey[] = [];
  readonly origin: string;
  readonly algorithms: readonly PasskeyAlgorithm[];

  /** `algorithms`: the COSE algorithms it can make (all it knows, by default). */
  constructor(origin: string, algorithms: readonly PasskeyAlgorithm[] = PASSKEY_TEST_ALGORITHMS) {
    this.origin = origin;
    this.algorithms = algorithms;
  }

  /** `navigator.credentials.create()` with these options (`PublicKeyCredentialCreationOptionsJSON`): the response's JSON. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string }; pubKeyCredParams?: { alg: number }[] }, ceremony: Ceremony = {}) {
    const rpId = ceremony.rpId ?? options.rp.id!;
    // As a browser's authenticator does: the first algorithm offered that it can make.
    const offered = options.pubKeyCredParams?.map((p) => p.alg) ?? [-7];
    const algorithm = offered.find((alg) => this.algorithms.includes(alg as PasskeyAlgorithm)) as PasskeyAlgorithm | undefined;
    if (algorithm === undefined) throw new Error(`this authenticator makes none of the algorithms offered (${offered.join(', ')})`);
    const { privateKey, coseKey } = newKeyPair(algorithm);
    const credentialId = randomBytes(16);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(credentialId.length);
    // Flags: user present, user verified, attested credential data included.
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x45]), u32(0), Buffer.alloc(16), length, credentialId, Buffer.from(isoCBOR.encode(coseKey))]);
    const attestation: [string, string | Bytes | Map<string, string>][] = [
      ['fmt', 'none'],
      ['attStmt', new Map<string, string>()],
      ['authData', authData],
    ];
    const attestationObject = isoCBOR.encode(new Map(attestation));
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: ceremony.origin ?? this.origin,
      crossOrigin: false,
    });
    this.held.push({ id: b64url(credentialId), privateKey, algorithm, rpId, counter: 0, userHandle: options.user.id });
    return {
      id: b64url(credentialId),
      rawId: b64url(credentialId),
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /**
   * `navigator.credentials.get()` with these options (`PublicKeyCredentialRequestOptionsJSON`):
   * signed by `passkey` (the first one the options allow, else the first held), its counter counted
   * up unless `counter` says what to sign with.
   */
  assert(
    options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] },
    { passkey, counter, ...ceremony }: Ceremony & { passkey?: HeldPasskey; counter?: number } = {},
  ) {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const signer = passkey ?? this.held.find((p) => !allowed?.length || allowed.includes(p.id));
    if (!signer) throw new Error('this authenticator holds none of the passkeys the options allow');
    signer.counter = counter ?? signer.counter + 1;
    const rpId = ceremony.rpId ?? options.rpId ?? signer.rpId;
    // Flags: user present, user verified.
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), u32(signer.counter)]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: ceremony.origin ?? this.origin, crossOrigin: false }),
    );
    const signature = sign(DIGEST[signer.algorithm], Buffer.concat([authenticatorData, sha256(clientDataJSON)]), signer.privateKey);
    return {
      id: signer.id,
      rawId: signer.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: signer.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }
}
