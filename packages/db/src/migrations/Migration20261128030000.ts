import { Migration } from '@mikro-orm/migrations';

/** What a submission reads of its form, as Migration20261128020000 named it. */
const BEFORE = [
  'id', 'workspace_id', 'project_id', 'name', 'state', 'schema', 'submission_mode', 'allowed_origins', 'redirect_url', 'honeypot',
  'captcha_provider', 'captcha_site_key', 'captcha_secret_sealed', 'closed', 'closes_at', 'max_submissions', 'closed_message',
  'retention_days', 'created_at', 'updated_at', 'unknown_fields', 'notify_emails', 'notify_fallback',
];
const quoted = (columns: string[]) => columns.map((column) => `"${column}"`).join(', ');
const trigger = (columns: string[]) =>
  `create trigger "forms_notify_changed" after update of ${quoted(columns)} or delete on "forms" for each row execute function "lfk_notify_form_changed"();`;

/**
 * Issue 41: a form may answer the person who submitted (`auto_reply`), which submissions read, so
 * its changes are heard by every process; the count of auto-replies it did not send
 * (`auto_replies_skipped`) is left out of the trigger, as `refused_origins` is: a flood of skipped
 * replies must not empty every replica's cache. The addresses that stopped a workspace's
 * auto-replies are kept in `auto_reply_stops`. An email may carry an HTML rendering and a
 * `List-Unsubscribe` link.
 */
export class Migration20261128030000 extends Migration {
  override name = 'Migration20261128030000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add "auto_reply" jsonb null, add "auto_replies_skipped" int not null default 0;`);
    this.addSql(`drop trigger "forms_notify_changed" on "forms";`);
    this.addSql(trigger([...BEFORE, 'auto_reply']));
    this.addSql(`create table "auto_reply_stops" ("workspace_id" varchar(40) not null, "email" varchar(254) not null, "created_at" timestamptz not null, primary key ("workspace_id", "email"));`);
    this.addSql(`alter table "auto_reply_stops" add constraint "auto_reply_stops_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on delete cascade;`);
    this.addSql(`alter table "outbox_emails" add "html" text null, add "list_unsubscribe" varchar(2048) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox_emails" drop column "html", drop column "list_unsubscribe";`);
    this.addSql(`drop table "auto_reply_stops";`);
    this.addSql(`drop trigger "forms_notify_changed" on "forms";`);
    this.addSql(trigger(BEFORE));
    this.addSql(`alter table "forms" drop column "auto_reply", drop column "auto_replies_skipped";`);
  }
}
