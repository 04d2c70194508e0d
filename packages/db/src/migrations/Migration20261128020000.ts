import { Migration } from '@mikro-orm/migrations';

/** What a submission reads of its form, as Migration20261128010000 named it. */
const BEFORE = [
  'id', 'workspace_id', 'project_id', 'name', 'state', 'schema', 'submission_mode', 'allowed_origins', 'notify_email',
  'notify_email_verified', 'notify_email_fallback', 'redirect_url', 'honeypot', 'captcha_provider', 'captcha_site_key',
  'captcha_secret_sealed', 'closed', 'closes_at', 'max_submissions', 'closed_message', 'retention_days', 'created_at', 'updated_at',
  'unknown_fields',
];
const NOTIFY_BEFORE = ['notify_email', 'notify_email_verified', 'notify_email_fallback'];
const AFTER = [...BEFORE.filter((column) => !NOTIFY_BEFORE.includes(column)), 'notify_emails', 'notify_fallback'];
const quoted = (columns: string[]) => columns.map((column) => `"${column}"`).join(', ');
const trigger = (columns: string[]) =>
  `create trigger "forms_notify_changed" after update of ${quoted(columns)} or delete on "forms" for each row execute function "lfk_notify_form_changed"();`;

/**
 * Issue 41: a form notifies up to 5 addresses, each verified on its own. `notify_emails` holds them
 * in order with whether each is verified (`[{ "email", "verified" }]`); `notify_fallback` the
 * addresses verified before a change, which keep the notifications while none of the new ones is
 * verified (what `notify_email_fallback` was for one address). The one address a form had becomes
 * the first of its list. A notification may carry `Reply-To` (the submitter's address).
 */
export class Migration20261128020000 extends Migration {
  override name = 'Migration20261128020000';

  override up(): void | Promise<void> {
    this.addSql(`drop trigger "forms_notify_changed" on "forms";`);
    this.addSql(`alter table "forms" add "notify_emails" jsonb not null default '[]', add "notify_fallback" jsonb null;`);
    this.addSql(`update "forms" set "notify_emails" = jsonb_build_array(jsonb_build_object('email', "notify_email", 'verified', "notify_email_verified")) where "notify_email" is not null;`);
    this.addSql(`update "forms" set "notify_fallback" = jsonb_build_array("notify_email_fallback") where "notify_email_fallback" is not null;`);
    this.addSql(`alter table "forms" alter column "notify_emails" drop default, drop column "notify_email", drop column "notify_email_verified", drop column "notify_email_fallback";`);
    this.addSql(trigger(AFTER));
    this.addSql(`alter table "outbox_emails" add "reply_to" varchar(254) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox_emails" drop column "reply_to";`);
    this.addSql(`drop trigger "forms_notify_changed" on "forms";`);
    this.addSql(`alter table "forms" add "notify_email" varchar(254) null, add "notify_email_verified" boolean not null default false, add "notify_email_fallback" varchar(254) null;`);
    this.addSql(`update "forms" set "notify_email" = "notify_emails"->0->>'email', "notify_email_verified" = coalesce(("notify_emails"->0->>'verified')::boolean, false), "notify_email_fallback" = "notify_fallback"->>0;`);
    this.addSql(`alter table "forms" drop column "notify_emails", drop column "notify_fallback";`);
    this.addSql(trigger(BEFORE));
  }
}
