import { AuditEvent, type IWebhookEndpoint, isId, WebhookEndpoint } from '@lfk/db';
import { type AuditAction, signsRequests, type WebhookKind } from '@lfk/vocabulary';
import type { EntityManager } from '@mikro-orm/sql';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../../trpc.ts';
import { webhookToWire } from './serializers.ts';

// What every group of the webhooks' procedures does to an endpoint: find it (locked for a change),
// show it with its last delivery, and record in the audit log what a person or a key did to it.

/**
 * The form's endpoint with this id; another form's, or a wrong-shaped id, is not found. `lock`
 * takes its row lock, in `em`'s transaction, for a change.
 */
export async function findEndpoint(em: EntityManager, formId: string, webhookId: string, lock = false): Promise<IWebhookEndpoint> {
  const endpoints = em.getRepository(WebhookEndpoint);
  const where = { id: webhookId, form: formId };
  const found = isId('wh', webhookId) ? await (lock ? endpoints.findOneForUpdate(where) : endpoints.findOne(where)) : null;
  if (!found) throw new ApiError('webhook_not_found');
  return found;
}

/** `findEndpoint`, locked for a change. */
export const lockEndpoint = (em: EntityManager, formId: string, webhookId: string) => findEndpoint(em, formId, webhookId, true);

/** An endpoint whose secrets a request reads or changes: a Slack or Discord one signs nothing, and has none. */
export function signing<E extends { kind: WebhookKind }>(endpoint: E): E {
  if (!signsRequests(endpoint.kind)) throw new ApiError('webhook_not_signed');
  return endpoint;
}

export async function withLastDelivery(em: EntityManager, endpoints: IWebhookEndpoint[]) {
  const last = await em.getRepository(WebhookEndpoint).lastDeliveries(endpoints.map((e) => e.id));
  return endpoints.map((e) => webhookToWire(e, last.get(e.id)));
}

export const oneWithLastDelivery = async (em: EntityManager, endpoint: IWebhookEndpoint) => (await withLastDelivery(em, [endpoint]))[0]!;

/** What a person or a key did to an endpoint (lfk's own `webhook.disabled` is recorded by the delivery job). */
type WebhookAction = Exclude<Extract<AuditAction, `webhook.${string}`>, 'webhook.disabled'>;

export function auditWebhook(
  em: EntityManager,
  endpoint: IWebhookEndpoint,
  workspaceId: string,
  actor: Actor,
  action: WebhookAction,
  data: Record<string, unknown> = {},
) {
  em.getRepository(AuditEvent).record({
    workspaceId,
    action,
    actor,
    target: { type: 'webhook', id: endpoint.id },
    // The host, not the URL: a receiver's path may itself be a secret (a Slack hook's is).
    data: { form_id: endpoint.form.id, host: new URL(endpoint.url).host, ...data },
  });
}
