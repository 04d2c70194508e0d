import { ApiKey, AuditEvent, WebhookEndpoint, Workspace } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import { SYSTEM_ACTOR } from '../../trpc.ts';
import type { z } from 'zod';
import type { TakenBack } from '../auth/emails.ts';
import { cancelInvitationsSentBy } from '../invitations/invitations.ts';
import type { accountReclaimed } from '../invitations/schemas.ts';

/** What was taken back, as the email names it, and the revoked keys' hashes for this process's key cache (the database tells the other replicas). */
export type TakenBackGrants = TakenBack & { keyHashes: string[] };

const REASON: z.infer<typeof accountReclaimed> = 'account_reclaimed';

/**
 * A password reset that confirms an account's address for the first time hands the account to
 * whoever reads that address's mail, who may not be whoever signed up with it ("account
 * pre-hijacking"). What the account handed out before is taken back, in the reset's transaction:
 * the keys it made (in any workspace), the webhooks it or those keys added, the invitations it
 * sent that are still pending; the reset signs its sessions out as every reset does. Each is
 * recorded in its workspace's audit log as lfk's doing, with `reason: "account_reclaimed"`.
 */
export async function takeBackUnconfirmedGrants(em: EntityManager, userId: string, now: Date): Promise<TakenBackGrants> {
  // The webhooks first: which ones its keys added is read from the keys it made, revoked or not.
  const webhooks = await em.getRepository(WebhookEndpoint).deleteAddedBy(userId);
  const keys = await em.getRepository(ApiKey).revokeCreatedBy(userId, now);
  const invitations = await cancelInvitationsSentBy(em, userId, { actor: SYSTEM_ACTOR, reason: REASON });
  const audit = em.getRepository(AuditEvent);
  for (const key of keys) {
    audit.record({
      workspaceId: key.workspaceId,
      action: 'api_key.revoked',
      actor: SYSTEM_ACTOR,
      target: { type: 'api_key', id: key.id },
      data: { reason: REASON },
    });
  }
  const hostOf = (url: string) => new URL(url).host;
  for (const endpoint of webhooks) {
    if (endpoint.workspaceId === null) continue;
    audit.record({
      workspaceId: endpoint.workspaceId,
      action: 'webhook.deleted',
      actor: SYSTEM_ACTOR,
      target: { type: 'webhook', id: endpoint.id },
      // The host, not the URL, as for every webhook event: a receiver's path may be a secret.
      data: { form_id: endpoint.formId, host: hostOf(endpoint.url), reason: REASON },
    });
  }
  const workspaceIds = [
    ...new Set([...keys.map((k) => k.workspaceId), ...webhooks.flatMap((w) => w.workspaceId ?? []), ...invitations.map((i) => i.workspaceId)]),
  ];
  const names = new Map(
    workspaceIds.length === 0 ? [] : (await em.getRepository(Workspace).find({ id: { $in: workspaceIds } })).map((w) => [w.id, w.name] as const),
  );
  const nameOf = (workspaceId: string | null) => (workspaceId && names.get(workspaceId)) ?? 'a deleted workspace';
  return {
    keys: keys.map((k) => ({ name: k.name, prefix: k.prefix, workspace: nameOf(k.workspaceId) })),
    webhooks: webhooks.map((w) => ({ host: hostOf(w.url), form: w.formName, workspace: nameOf(w.workspaceId) })),
    invitations: invitations.map((i) => ({ email: i.email, role: i.role, workspace: nameOf(i.workspaceId) })),
    keyHashes: keys.map((k) => k.keyHash),
  };
}
