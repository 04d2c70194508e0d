import type { RouterOutputs } from '@lfk/client';
import { describeBytes, FILE_FIELD_LIMITS } from '@lfk/vocabulary';
import type { CommandContext } from '../../command-context.ts';
import type { RecordEntry } from '../../output/table.ts';

export type Form = RouterOutputs['forms']['get'];

/** A file field's rules in a few words: the types it takes, the most one file weighs, how many. */
function fileRules(field: Form['schema'][number]): string {
  const files = field.multiple ? `up to ${field.max_files ?? FILE_FIELD_LIMITS.defaultMaxFiles} files` : 'one file';
  const size = `max ${describeBytes(field.max_size ?? FILE_FIELD_LIMITS.defaultMaxSize)}`;
  return [field.accept?.length ? field.accept.join(', ') : 'any type', size, files].join('; ');
}

const UNKNOWN_FIELDS_SHOWN = {
  reject: 'reject (a submission naming a field the form does not have is refused)',
  keep: "keep (stored as text after the form's own fields)",
  ignore: 'ignore (dropped)',
} as const;

/** A form's settings, then its fields as a table. */
export function printForm(form: Form, ctx: CommandContext): void {
  const { style } = ctx.out;
  const verified = new Set(form.verified_notify_emails);
  const waiting = form.notify_emails.length > verified.size;
  const listed = form.notify_emails.map((address) => `${address} (${verified.has(address) ? 'verified' : 'not verified'})`).join(', ');
  // While none is verified, the addresses verified before the change keep the emails.
  const meanwhile =
    verified.size > 0
      ? ''
      : form.notified_addresses.length > 0
        ? `; submissions still go to ${form.notified_addresses.join(', ')} until one is`
        : '; no submission is emailed until one is';
  const notify: RecordEntry =
    form.notify_emails.length === 0 ? ['notify emails', 'none'] : ['notify emails', `${listed}${meanwhile}`, waiting ? style.yellow : style.green];
  ctx.out.record([
    ['id', form.id],
    ['name', form.name],
    ['state', form.state],
    ['workspace', form.workspace_id ?? '-'],
    ['project', form.project_id ?? '-'],
    ['submission mode', form.submission_mode],
    ['unknown fields', UNKNOWN_FIELDS_SHOWN[form.unknown_fields]],
    ['allowed origins', form.allowed_origins.join(', ') || 'none'],
    ...(form.refused_origins.length > 0
      ? [['refused lately', form.refused_origins.map((r) => `${r.origin} (${r.last_refused_at})`).join(', '), style.yellow] as RecordEntry]
      : []),
    notify,
    ['redirect url', form.redirect_url ?? 'none'],
    ['error redirect url', form.error_redirect_url ?? "none (lfk's page)"],
    form.closed ? ['closed', 'yes: submissions are refused', style.yellow] : ['closed', 'no'],
    ['closes at', form.closes_at ?? 'never'],
    ['max submissions', form.max_submissions === null ? 'no limit' : String(form.max_submissions)],
    ...(form.closed_message ? [['closed message', form.closed_message] as RecordEntry] : []),
    ['honeypot', form.spam.honeypot ?? 'none'],
    ['captcha', form.spam.captcha ? `${form.spam.captcha.provider} (site key ${form.spam.captcha.site_key})` : 'none'],
    ['spam filter', form.spam_filter.enabled ? `on: above ${form.spam_filter.threshold} goes to spam` : 'off'],
    ['retention', form.retention_days === null ? 'kept until deleted' : `${form.retention_days} days`],
    [
      'drafts',
      form.drafts.enabled
        ? `kept ${form.drafts.ttl_days} days after the last save${form.drafts.email_link ? ', a link to finish later emailed on request' : ''}`
        : 'off',
    ],
    [
      'auto-reply',
      form.auto_reply
        ? `${form.auto_reply.enabled ? 'on' : 'off'}: to the address in "${form.auto_reply.email_field}", subject "${form.auto_reply.subject}"`
        : 'none',
    ],
    ...(form.auto_replies_skipped > 0
      ? [['auto-replies skipped', `${form.auto_replies_skipped} (the address stopped them, or a limit was reached)`, style.yellow] as RecordEntry]
      : []),
    ['created', form.created_at],
    ['updated', form.updated_at],
  ]);
  ctx.out.line();
  ctx.out.table(
    [
      { header: 'FIELD', value: (f) => f.name },
      { header: 'TYPE', value: (f) => f.type },
      { header: 'REQUIRED', value: (f) => (f.required ? 'yes' : 'no') },
      { header: 'LABEL', value: (f) => f.label ?? '', shrink: true },
      { header: 'OPTIONS', value: (f) => (f.type === 'file' ? fileRules(f) : (f.options?.join(', ') ?? '')), shrink: true },
    ],
    form.schema,
  );
}
