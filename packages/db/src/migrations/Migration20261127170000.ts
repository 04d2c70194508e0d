import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: a form's events other than `submission.created` (released, deleted, closed, reopened)
 * are kept 30 days in `form_events`, so a recover can send them again; an endpoint says since when
 * it is disabled (`disabled_at`: one disabled before is taken as disabled since its last change).
 */
export class Migration20261127170000 extends Migration {
  override name = 'Migration20261127170000';

  override up(): void | Promise<void> {
    this.addSql(`create table "form_events" ("id" varchar(40) not null, "created_at" timestamptz not null, "form_id" varchar(40) not null, "type" varchar(64) not null, "submission_id" varchar(40) null, "payload" text not null, primary key ("id"));`);
    this.addSql(`create index "form_events_form_id_created_at_index" on "form_events" ("form_id", "created_at");`);
    this.addSql(`create index "form_events_created_at_index" on "form_events" ("created_at");`);
    this.addSql(`alter table "form_events" add constraint "form_events_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);
    this.addSql(`alter table "webhook_endpoints" add "disabled_at" timestamptz null;`);
    this.addSql(`update "webhook_endpoints" set "disabled_at" = "updated_at" where not "enabled";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "form_events";`);
    this.addSql(`alter table "webhook_endpoints" drop column "disabled_at";`);
  }
}
