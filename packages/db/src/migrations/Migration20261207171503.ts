import { Migration } from '@mikro-orm/migrations';

/** Issue 53: drafts, what a visitor typed and has not sent, and a form's `drafts` setting. */
export class Migration20261207171503 extends Migration {
  override name = 'Migration20261207171503';

  override up(): void | Promise<void> {
    this.addSql(`create table "drafts" ("id" varchar(40) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "form_id" varchar(40) not null, "token_hash" varchar(64) not null, "data" json not null, "origin" varchar(2048) not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "drafts" add constraint "drafts_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "drafts_expires_at_index" on "drafts" ("expires_at");`);
    this.addSql(`create index "drafts_form_id_id_index" on "drafts" ("form_id", "id");`);

    this.addSql(`alter table "forms" add "drafts" jsonb null;`);

    this.addSql(`alter table "drafts" add constraint "drafts_form_id_foreign" foreign key ("form_id") references "forms" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "drafts" cascade;`);

    this.addSql(`alter table "forms" drop column "drafts";`);
  }
}
