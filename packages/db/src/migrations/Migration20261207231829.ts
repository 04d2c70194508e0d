import { Migration } from '@mikro-orm/migrations';

/** Issue 54: the content filter: a form's `spam_filter`, a submission's score and reasons, and each workspace's learning. */
export class Migration20261207231829 extends Migration {
  override name = 'Migration20261207231829';

  override up(): void | Promise<void> {
    this.addSql(`create table "spam_learnings" ("workspace_id" varchar(40) not null, "weights" jsonb not null, "scripts" jsonb not null, "marks" int not null default 0, "hour_started_at" timestamptz not null, "marks_in_hour" int not null default 0, "updated_at" timestamptz not null, primary key ("workspace_id"));`);

    this.addSql(`alter table "forms" add "spam_filter" jsonb null;`);

    this.addSql(`alter table "submissions" drop constraint "submissions_spam_reason_check";`);
    this.addSql(`alter table "submissions" add "spam_score" real null, add "spam_reasons" jsonb null;`);
    this.addSql(`alter table "submissions" add constraint "submissions_spam_reason_check" check ("spam_reason" in ('honeypot', 'captcha_unverified', 'content', 'marked'));`);

    this.addSql(`alter table "spam_learnings" add constraint "spam_learnings_workspace_id_foreign" foreign key ("workspace_id") references "workspaces" ("id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "spam_learnings" cascade;`);

    this.addSql(`alter table "forms" drop column "spam_filter";`);

    this.addSql(`alter table "submissions" drop constraint "submissions_spam_reason_check";`);
    this.addSql(`alter table "submissions" drop column "spam_score", drop column "spam_reasons";`);
    this.addSql(`alter table "submissions" add constraint "submissions_spam_reason_check" check ("spam_reason" in ('honeypot', 'captcha_unverified', 'marked'));`);
  }
}
