import { AutoReplyStop, Form, type FormReading, type SubmissionFormReading, Workspace } from '@lfk/db';
import type { AutoReplySkipReason } from '@lfk/vocabulary';
import type { Services } from '../../context.ts';
import { sha256 } from '../../credentials/secrets.ts';
import { allowsUnasked, type OutgoingEmail, type UnaskedAllowance } from '../../infrastructure/outbox.ts';
import { notifiedAddresses } from '../email-verification/notify-email.ts';
import { autoReplyEmail } from './email.ts';
import { stopToken, stopUrl } from './stop-links.ts';

type Sending = Pick<Services, 'db' | 'rateLimits' | 'formCache' | 'metrics' | 'secretBox' | 'publicUrl'>;

/**
 * Why mail a form sends to an address a visitor typed (an auto-reply, a draft's link) must not go,
 * or the allowance it spent of the address's unasked mail: the address stopped the workspace's, or
 * it has had its share of such mail across lfk, or the form, its workspace or the account that set
 * the auto-reply has had its share, or the address has had its share of mail it did not ask for
 * (`allowsUnasked`). Each allowance is counted only once the one before it allows: mail refused for
 * its address spends nothing of the form's.
 */
export async function visitorMailVerdict(
  services: Sending,
  form: SubmissionFormReading,
  workspaceId: string,
  address: string,
): Promise<{ skipped: AutoReplySkipReason } | { unasked: UnaskedAllowance }> {
  if (await services.db.fork().getRepository(AutoReplyStop).isStopped(workspaceId, address)) return { skipped: 'stopped' };
  const limits = services.rateLimits;
  // Counted by a hash: the limits' table need not hold the addresses.
  if (!(await limits.allows('auto_reply_recipients', sha256(address)))) return { skipped: 'recipient_limit' };
  if (!(await limits.allows('auto_reply_forms', form.id))) return { skipped: 'form_limit' };
  if (!(await limits.allows('auto_reply_workspaces', workspaceId))) return { skipped: 'workspace_limit' };
  const setBy = form.autoReply?.set_by;
  if (setBy && !(await limits.allows('auto_reply_accounts', setBy))) return { skipped: 'account_limit' };
  const unasked = await allowsUnasked(limits, address);
  return unasked ? { unasked } : { skipped: 'recipient_limit' };
}

/**
 * The auto-reply a real submission with these values sends (written with it, which ties it to
 * it), if its form has one enabled and the person gave an address; null when none goes. One the
 * rules exclude is counted on the form and in `/metrics` instead, never sent. Asked once, when the
 * submission arrives: a submission released from spam later sends none.
 */
export async function autoReplyOf(services: Sending, form: SubmissionFormReading, values: Record<string, unknown>): Promise<OutgoingEmail | null> {
  const settings = form.autoReply;
  const workspaceId = form.workspace?.id;
  const given = settings?.enabled ? values[settings.email_field] : undefined;
  if (!settings || !workspaceId || typeof given !== 'string') return null;
  // The email field's check made it one address on one line; it is compared by its lower case.
  const address = given.toLowerCase();
  const verdict = await visitorMailVerdict(services, form, workspaceId, address);
  if ('skipped' in verdict) {
    await services.db.fork().getRepository(Form).countSkippedAutoReply(form.id);
    // The count is part of the form as read, and the database's triggers leave it out: this copy is stale now.
    services.formCache.forget(form.id);
    services.metrics.autoReplySkipped(verdict.skipped);
    return null;
  }
  const reply = await autoReplyTo(services, given, form, values);
  return reply && { ...reply, unasked: verdict.unasked };
}

/** The auto-reply of a form (that has one, in a workspace) to `to`, whatever the rules say: what `autoReplyOf` sends, and a preview shows. */
export async function autoReplyTo(
  services: Pick<Services, 'db' | 'secretBox' | 'publicUrl'>,
  to: string,
  form: FormReading,
  values: Record<string, unknown>,
): Promise<OutgoingEmail | null> {
  const workspaceId = form.workspace?.id;
  if (!form.autoReply || !workspaceId) return null;
  const workspaceName = await services.db.fork().getRepository(Workspace).nameOf(workspaceId);
  if (workspaceName === null) return null;
  return autoReplyEmail({
    to,
    replyTo: notifiedAddresses(form)[0] ?? null,
    settings: form.autoReply,
    values,
    formName: form.name,
    workspaceName,
    stopUrl: stopUrl(services.publicUrl, stopToken(services.secretBox, workspaceId, to.toLowerCase())),
  });
}
