import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** One credential the authenticator holds. */
export interface HeldPasskey {
  id: string;
  privateKey: KeyObject;
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

/**
 * A software authenticator that does what a platform authenticator does, by WebAuthn's rules:
 * an ES256 key pair per credential (attestation "none"), authenticator data with the RP ID's hash
 * and a signature counter, and real signatures over the client data. For the API's tests, where
 * no browser runs; the dashboard's tests use Chromium's virtual authenticator instead.
 */
export class PasskeyAuthenticator {
  readonly held: HeldPasskey[] = [];
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  /** `navigator.credentials.create()` with these options (`PublicKeyCredentialCreationOptionsJSON`): the response's JSON. */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, ceremony: Ceremony = {}) {
    const rpId = ceremony.rpId ?? options.rp.id!;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Bytes>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
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
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: ceremony.origin ?? this.origin, crossOrigin: false });
    this.held.push({ id: b64url(credentialId), privateKey, rpId, counter: 0, userHandle: options.user.id });
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
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: ceremony.origin ?? this.origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), signer.privateKey);
    return {
      id: signer.id,
      rawId: signer.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature), userHandle: signer.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }
}
