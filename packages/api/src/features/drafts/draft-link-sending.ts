import { type SubmissionFormReading, Workspace } from '@lfk/db';
import type { EntityManager } from '@mikro-orm/sql';
import type { Services } from '../../context.ts';
import { insertEmail } from '../../infrastructure/outbox.ts';
import { visitorMailVerdict } from '../auto-replies/sending.ts';
import { stopToken, stopUrl } from '../auto-replies/stop-links.ts';
import { draftLinkEmail, draftLinkOf } from './draft-link-email.ts';

/**
 * Queues the "continue later" email, within the limits an auto-reply keeps (the address's stop,
 * its share of such mail, the form's and the workspace's): mail they hold back is counted in
 * `/metrics`, and the visitor is answered alike, so the answer tells nobody about an address.
 */
export async function sendDraftLink(
  services: Services,
  em: EntityManager,
  form: SubmissionFormReading,
  draft: { to: string; pageUrl: string; token: string; expiresAt: Date },
): Promise<void> {
  const workspaceId = form.workspace?.id;
  const workspaceName = workspaceId ? await em.getRepository(Workspace).nameOf(workspaceId) : null;
  if (!workspaceId || workspaceName === null) return;
  const verdict = await visitorMailVerdict(services, form, workspaceId, draft.to);
  if ('skipped' in verdict) return services.metrics.autoReplySkipped(verdict.skipped);
  const email = draftLinkEmail({
    to: draft.to,
    link: draftLinkOf(draft.pageUrl, form.id, draft.token),
    token: draft.token,
    formName: form.name,
    workspaceName,
    expiresAt: draft.expiresAt,
    stopUrl: stopUrl(services.publicUrl, stopToken(services.secretBox, workspaceId, draft.to)),
    secretBox: services.secretBox,
    unasked: verdict.unasked,
  });
  await insertEmail(em, email);
  services.wakeMailer();
}
