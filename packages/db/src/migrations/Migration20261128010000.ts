import { Migration } from '@mikro-orm/migrations';

/** What a submission reads of its form, as Migration20261127095424 named it, and now `unknown_fields`. */
const BEFORE = [
  'id', 'workspace_id', 'project_id', 'name', 'state', 'schema', 'submission_mode', 'allowed_origins', 'notify_email',
  'notify_email_verified', 'notify_email_fallback', 'redirect_url', 'honeypot', 'captcha_provider', 'captcha_site_key',
  'captcha_secret_sealed', 'closed', 'closes_at', 'max_submissions', 'closed_message', 'retention_days', 'created_at', 'updated_at',
];
const quoted = (columns: string[]) => columns.map((column) => `"${column}"`).join(', ');

/**
 * Issue 41: a form says what a submitted field its schema does not name gets (`reject`, `keep`,
 * `ignore`); forms made before keep today's answer, `reject`. Submissions read it, so a change of
 * it tells every process too (the trigger of Migration20261127095424, with the column added).
 */
export class Migration20261128010000 extends Migration {
  override name = 'Migration20261128010000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add "unknown_fields" text not null default 'reject';`);
    this.addSql(`alter table "forms" add constraint "forms_unknown_fields_check" check ("unknown_fields" in ('reject', 'keep', 'ignore'));`);
    this.addSql(`drop trigger "forms_notify_changed" on "forms";`);
    this.addSql(`create trigger "forms_notify_changed" after update of ${quoted([...BEFORE, 'unknown_fields'])} or delete on "forms" for each row execute function "lfk_notify_form_changed"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "forms_notify_changed" on "forms";`);
    this.addSql(`create trigger "forms_notify_changed" after update of ${quoted(BEFORE)} or delete on "forms" for each row execute function "lfk_notify_form_changed"();`);
    this.addSql(`alter table "forms" drop column "unknown_fields";`);
  }
}
