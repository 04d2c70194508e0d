import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

/** A signing key pair for leak reports, and the `LFK_SECRET_SCANNING_KEYS` value that trusts it. */
export function reporterKeys(identifier = 'a'.repeat(64)): { identifier: string; privateKey: KeyObject; pem: string; env: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return { identifier, privateKey, pem, env: JSON.stringify({ [identifier]: pem }) };
}

/** The headers GitHub sends with a report: the key's identifier and a base64 DER signature of the body. */
export function signed(body: string, keys: { identifier: string; privateKey: KeyObject }): Record<string, string> {
  return {
    'github-public-key-identifier': keys.identifier,
    'github-public-key-signature': sign('sha256', Buffer.from(body), keys.privateKey).toString('base64'),
  };
}
