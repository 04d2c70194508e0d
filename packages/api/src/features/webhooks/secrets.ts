import type { EndpointForDelivery } from '@lfk/db';
import type { SecretBox } from '../../credentials/secret-box.ts';

/** After a rotation, the previous secret signs beside the new one this long. */
export const PREVIOUS_SECRET_SIGNS_FOR_MS = 24 * 3_600_000;

/** Where an endpoint's secret is sealed: the box binds it to the endpoint and its slot. */
export const secretContext = (endpointId: string, slot: 'current' | 'previous') => `webhook_endpoints.${slot}:${endpointId}`;

/** The secrets that sign at `at`: the current one, and the previous one within its 24 hours. */
export function signingSecrets(
  box: SecretBox,
  endpoint: Pick<EndpointForDelivery, 'id' | 'secretSealed'> & { previousSecretSealed?: string | null; previousSecretExpiresAt?: Date | null },
  at: Date,
): string[] {
  const secrets = [box.open(endpoint.secretSealed, secretContext(endpoint.id, 'current'))];
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at) {
    secrets.push(box.open(endpoint.previousSecretSealed, secretContext(endpoint.id, 'previous')));
  }
  return secrets;
}
