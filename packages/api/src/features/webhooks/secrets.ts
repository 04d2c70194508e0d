import type { PreviousSecret } from '@lfk/db';
import type { SecretBox } from '../../credentials/secret-box.ts';

/** After a rotation, the secret rotated away signs beside the new one this long. */
export const PREVIOUS_SECRET_SIGNS_FOR_MS = 24 * 3_600_000;

/**
 * Secrets rotated away that sign at once, at most: each is one more signature in every delivery's
 * `webhook-signature`, so rotating in a loop must not make the header grow without end. A rotation
 * past it ends the oldest at once.
 */
export const MAX_PREVIOUS_SECRETS = 5;

/** Where an endpoint's secret is sealed: the box binds it to the endpoint and its slot. */
export const secretContext = (endpointId: string, slot: 'current' | 'previous') => `webhook_endpoints.${slot}:${endpointId}`;

/** An endpoint's secrets as the signing rules need them. */
export interface EndpointSecrets {
  id: string;
  secretSealed: string;
  previousSecrets: readonly PreviousSecret[];
}

/** The secrets rotated away that still sign at `at`, newest first. */
export const livePrevious = (previous: readonly PreviousSecret[], at: Date): PreviousSecret[] => previous.filter((secret) => new Date(secret.expires_at) > at);

/** The secrets that sign at `at`: the current one, and each rotated away within its 24 hours. */
export function signingSecrets(box: SecretBox, endpoint: EndpointSecrets, at: Date): string[] {
  return [
    box.open(endpoint.secretSealed, secretContext(endpoint.id, 'current')),
    ...livePrevious(endpoint.previousSecrets, at).map((secret) => box.open(secret.sealed, secretContext(endpoint.id, 'previous'))),
  ];
}

/**
 * The secrets rotated away after rotating `current` (numbered `number`, made at `createdAt`, with its
 * public key if it is an Ed25519 key) away
 * at `now`: it first, signing 24 hours more, then those still live, at most `MAX_PREVIOUS_SECRETS`.
 * A current secret sealed under another `LFK_SECRET_KEY` (`current` null) cannot sign again: it is
 * left out, and rotating is how to replace it.
 */
export function afterRotation(
  box: SecretBox,
  endpoint: EndpointSecrets,
  current: { plain: string | null; publicKey: string | null; number: number; createdAt: Date },
  now: Date,
): PreviousSecret[] {
  const rotated: PreviousSecret[] =
    current.plain === null
      ? []
      : [
          {
            number: current.number,
            sealed: box.seal(current.plain, secretContext(endpoint.id, 'previous')),
            ...(current.publicKey ? { public_key: current.publicKey } : {}),
            created_at: current.createdAt.toISOString(),
            expires_at: new Date(now.getTime() + PREVIOUS_SECRET_SIGNS_FOR_MS).toISOString(),
          },
        ];
  return [...rotated, ...livePrevious(endpoint.previousSecrets, now)].slice(0, MAX_PREVIOUS_SECRETS);
}
