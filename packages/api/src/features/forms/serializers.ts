import type { FormReading } from '@lfk/db';
import type { z } from 'zod';
import { DRAFT_TTL_DAYS } from '@lfk/vocabulary';
import { iso } from '../../infrastructure/wire.ts';
import { spamFilterOf } from './inbox-settings.ts';
import type { form } from './schemas.ts';
import { notifiedAddresses } from '../email-verification/notify-email.ts';

/**
 * A form as answered: its claim token's hash, its captcha secret and internal columns never pass through here. Takes
 * the entity or a plain reading of its row (`FormReading`, which the entity satisfies).
 */
export const formToWire = (f: FormReading): z.input<typeof form> => ({
  id: f.id,
  workspace_id: f.workspace?.id ?? null,
  project_id: f.project?.id ?? null,
  name: f.name,
  state: f.state,
  schema: f.schema.map((field) => ({
    name: field.name,
    type: field.type as z.input<typeof form>['schema'][number]['type'],
    required: field.required,
    ...(field.label !== undefined ? { label: field.label } : {}),
    ...(field.options !== undefined ? { options: field.options } : {}),
    ...(field.private !== undefined ? { private: field.private } : {}),
    ...(field.max_size !== undefined ? { max_size: field.max_size } : {}),
    ...(field.accept !== undefined ? { accept: field.accept } : {}),
    ...(field.multiple !== undefined ? { multiple: field.multiple } : {}),
    ...(field.max_files !== undefined ? { max_files: field.max_files } : {}),
  })),
  unknown_fields: f.unknownFields,
  submission_mode: f.submissionMode,
  allowed_origins: f.allowedOrigins,
  refused_origins: (f.refusedOrigins ?? []).map((r) => ({ origin: r.origin, last_refused_at: r.at })),
  notify_email: f.notifyEmails[0]?.email ?? null,
  notify_email_verified: f.notifyEmails[0]?.verified ?? false,
  notify_emails: f.notifyEmails.map((address) => address.email),
  verified_notify_emails: f.notifyEmails.filter((address) => address.verified).map((address) => address.email),
  notified_addresses: notifiedAddresses(f),
  notifications_to: notifiedAddresses(f)[0] ?? null,
  redirect_url: f.redirectUrl ?? null,
  error_redirect_url: f.errorRedirectUrl ?? null,
  spam: {
    honeypot: f.honeypot ?? null,
    // The secret stays sealed where it is stored: it is never answered.
    captcha: f.captchaProvider && f.captchaSiteKey ? { provider: f.captchaProvider, site_key: f.captchaSiteKey } : null,
  },
  auto_reply: f.autoReply ? { enabled: f.autoReply.enabled, email_field: f.autoReply.email_field, subject: f.autoReply.subject, text: f.autoReply.text } : null,
  auto_replies_skipped: f.autoRepliesSkipped,
  closed: f.closed,
  closes_at: f.closesAt ? iso(f.closesAt) : null,
  max_submissions: f.maxSubmissions ?? null,
  closed_message: f.closedMessage ?? null,
  retention_days: f.retentionDays ?? null,
  drafts: { enabled: f.drafts?.enabled ?? false, ttl_days: f.drafts?.ttl_days ?? DRAFT_TTL_DAYS.default, email_link: f.drafts?.email_link ?? false },
  spam_filter: spamFilterOf(f),
  created_at: iso(f.createdAt),
  updated_at: iso(f.updatedAt),
});
