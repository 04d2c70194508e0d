import { Migration } from '@mikro-orm/migrations';

/** What a submission reads of its form, as Migration20261128030000 named it. */
const BEFORE = [
  'id', 'workspace_id', 'project_id', 'name', 'state', 'schema', 'submission_mode', 'allowed_origins', 'redirect_url', 'honeypot',
  'captcha_provider', 'captcha_site_key', 'captcha_secret_sealed', 'closed', 'closes_at', 'max_submissions', 'closed_message',
  'retention_days', 'created_at', 'updated_at', 'unknown_fields', 'notify_emails', 'notify_fallback', 'auto_reply',
];
const quoted = (columns: string[]) => columns.map((column) => `"${column}"`).join(', ');
const trigger = (columns: string[]) =>
  `create trigger "forms_notify_changed" after update of ${quoted(columns)} or delete on "forms" for each row execute function "lfk_notify_form_changed"();`;

/**
 * Issue 41: where a refused HTML form post sends the visitor instead of lfk's page
 * (`error_redirect_url`, with `?error=<code>&fields=<names>`). Submissions read it, so its changes
 * are heard by every process.
 */
export class Migration20261128040000 extends Migration {
  override name = 'Migration20261128040000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add "error_redirect_url" varchar(2048) null;`);
    this.addSql(`drop trigger "forms_notify_changed" on "forms";`);
    this.addSql(trigger([...BEFORE, 'error_redirect_url']));
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "forms_notify_changed" on "forms";`);
    this.addSql(trigger(BEFORE));
    this.addSql(`alter table "forms" drop column "error_redirect_url";`);
  }
}
