import { ACTOR_TYPES, AUDIT_ACTIONS, type AuditAction, WEBHOOK_FAILING_DISABLE_DAYS } from '@lfk/vocabulary';
import { z } from 'zod';
import { listInput, role, timestamp, workspaceScoped } from '../../common-schemas.ts';
import { accountReclaimed, invitationEndedReason } from '../invitations/schemas.ts';

const nothing = z.object({});

/** What every webhook event records: the form, and the receiver's host (never its whole URL, which may be a secret). */
const webhookAudit = z.object({ form_id: z.string(), host: z.string() });

/** A device sign-in decided by a member: what asked, from where, and where it was decided from. */
const deviceLoginAudit = z.object({
  device_name: z.string(),
  requested_ip: z.string().nullable().describe('The address the sign-in was asked from.'),
  requested_user_agent: z.string().nullable(),
  decided_from_ip: z.string().describe('The address of the session that approved or denied it.'),
});

/** The files a deletion took with it: how many and their bytes, never what they held. */
const deletedFiles = {
  files: z.int().optional().describe('How many files were deleted with them (absent when none).'),
  file_bytes: z.int().optional().describe('Their size in bytes, together.'),
};

/**
 * What each action records in `data`. Fields an older server did not record yet (a key's
 * `expires_at`, a roll's `rolled_from`) are optional, so every stored event still reads.
 */
const AUDIT_DATA = {
  'api_key.created': z.object({
    name: z.string().nullable(),
    prefix: z.string(),
    expires_at: timestamp.nullable().optional(),
    allowed_ips: z.array(z.string()).nullable().optional().describe('Where it may be used from; null for anywhere.'),
    rolled_from: z.string().optional().describe('The key this one replaced, when made by a roll.'),
  }),
  'api_key.revoked': z.object({ reason: accountReclaimed.optional() }),
  'api_key.rolled': z.object({
    rolled_to: z.string(),
    grace_seconds: z.number().int(),
    revokes_at: timestamp.describe('When the old key stops working.'),
  }),
  'api_key.expired': z.object({ expired_at: timestamp.nullable() }),
  'api_key.leaked': z.object({
    reporter: z.string(),
    key_identifier: z.string().optional().describe("The signing key's identifier the report came with."),
    url: z.string().nullable().describe('Where the key was found.'),
    source: z.string().nullable(),
    type: z.string(),
  }),
  'api_key.updated': z.object({
    fields: z.array(z.string()).describe('The fields the update changed.'),
    name: z.object({ from: z.string().nullable(), to: z.string().nullable() }).optional().describe('A rename.'),
    allowed_ips: z
      .object({ from: z.array(z.string()).nullable(), to: z.array(z.string()).nullable() })
      .optional()
      .describe('A changed allowlist; null is anywhere.'),
  }),
  'form.created': z.object({ name: z.string() }),
  'form.updated': z.object({ fields: z.array(z.string()).describe('The fields the update changed.') }),
  'form.claimed': z.object({ name: z.string() }),
  'form.closed': nothing,
  'form.reopened': nothing,
  'form.deleted': z.object({ name: z.string(), submissions: z.int().describe('How many submissions were deleted with it.') }),
  'submission.deleted': z.object({ form_id: z.string(), ...deletedFiles }),
  'submission.marked_spam': z.object({ form_id: z.string() }),
  'submission.marked_not_spam': z.object({ form_id: z.string() }),
  'submissions.deleted': z.object({
    deleted: z.int(),
    ids: z.int().optional().describe('How many ids were asked for, when deleted by id.'),
    before: timestamp.optional().describe('The time asked for, when deleted by time.'),
    ...deletedFiles,
  }),
  'submissions.expired': z.object({
    retention: z.int().describe("Deleted for being older than the form's retention_days."),
    spam: z.int().describe('Spam deleted for being older than 30 days.'),
  }),
  'device_login.approved': deviceLoginAudit,
  'device_login.denied': deviceLoginAudit,
  'member.added': z.object({ role, invitation_id: z.string().optional().describe('The invitation accepted, when joined by one.') }),
  'member.removed': z.object({ role }),
  'member.role_changed': z.object({ from: role, to: role }),
  'member.left': z.object({ role }),
  'invitation.created': z.object({ email: z.string(), role }),
  'invitation.resent': z.object({ email: z.string() }),
  'invitation.cancelled': z.object({ email: z.string(), reason: invitationEndedReason.optional() }),
  'project.created': nothing,
  'workspace.created': nothing,
  'workspace.renamed': z.object({ from: z.string(), to: z.string() }),
  'workspace.file_link_ttl_changed': z
    .object({ from: z.int().nullable(), to: z.int().nullable() })
    .describe("Seconds its files' links live; null is the server's."),
  'workspace.two_factor_requirement_changed': z.object({ from: z.boolean(), to: z.boolean() }).describe('Whether its members need a second factor.'),
  'webhook.created': webhookAudit,
  'webhook.updated': webhookAudit.extend({
    fields: z.array(z.string()).describe('The fields the update changed.'),
    held: z.int().optional().describe('On a new URL: the deliveries queued for the previous one, now held for a member to retry or discard.'),
  }),
  'webhook.deleted': webhookAudit.extend({ reason: accountReclaimed.optional() }),
  'webhook.disabled': webhookAudit
    .extend({ reason: z.enum(['gone', 'failing']).describe(`410 Gone, or ${WEBHOOK_FAILING_DISABLE_DAYS} days of failures.`) })
    .omit({ host: true }),
  'webhook.secret_rotated': webhookAudit,
  'webhook.secret_ended': webhookAudit.extend({ number: z.number().int().describe('The secret ended early, by its number.') }),
  'webhook.recovered': webhookAudit.extend({
    since: z.string().describe('The start of the range recovered.'),
    until: z.string().describe('Its end.'),
    queued: z.number().int().describe('The deliveries queued.'),
  }),
  'webhook.secret_revealed': webhookAudit,
  'webhook.delivery_retried': webhookAudit.extend({ delivery_id: z.string() }),
  'webhook.delivery_discarded': webhookAudit.extend({ delivery_id: z.string() }),
  'two_factor.totp_enabled': nothing,
  'two_factor.totp_disabled': nothing,
  'two_factor.passkey_added': z.object({ name: z.string().describe("The passkey's name.") }),
  'two_factor.passkey_removed': z.object({ name: z.string().describe("The passkey's name.") }),
  'two_factor.recovery_codes_regenerated': nothing,
  'two_factor.recovery_code_used': z.object({ remaining: z.int().describe('Unused recovery codes left.') }),
} satisfies Record<AuditAction, z.ZodObject>;

/** A person's address where the event names a person (a `user` actor or target), so a member who has left is still known. */
const personEmail = z
  .string()
  .nullable()
  .describe("Only for a `user`: the account's address (null once the account is deleted), so a member who has left is still known.");

const auditEventOf = <A extends AuditAction>(action: A) =>
  z.object({
    id: z.string(),
    workspace_id: z.string(),
    action: z.literal(action),
    actor: z.object({ type: z.enum(ACTOR_TYPES), id: z.string(), email: personEmail.optional() }),
    target: z.object({ type: z.string(), id: z.string(), email: personEmail.optional() }).nullable(),
    data: AUDIT_DATA[action],
    created_at: timestamp,
  });

/** One variant per action, so that a check of `action` narrows `data`. */
type AuditEventVariant = { [A in AuditAction]: ReturnType<typeof auditEventOf<A>> }[AuditAction];

/** One audit event; its `data` depends on its `action`. */
export const auditEvent = z
  .discriminatedUnion('action', AUDIT_ACTIONS.map((action) => auditEventOf(action)) as [AuditEventVariant, ...AuditEventVariant[]])
  .meta({ id: 'AuditEvent' });
export const auditEventListInput = workspaceScoped.extend(listInput.shape);
