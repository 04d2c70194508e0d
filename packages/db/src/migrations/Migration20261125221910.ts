import { Migration } from '@mikro-orm/migrations';

/** Issue 26: a person's sessions, listed with when and where each was last used. */
export class Migration20261125221910 extends Migration {

  override name = 'Migration20261125221910';

  override up(): void | Promise<void> {
    this.addSql(`alter table "sessions" add "last_seen_at" timestamptz null, add "ip" varchar(64) null, add "user_agent" varchar(512) null;`);
    this.addSql(`create index "sessions_user_id_id_index" on "sessions" ("user_id", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "sessions_user_id_id_index";`);
    this.addSql(`alter table "sessions" drop column "last_seen_at", drop column "ip", drop column "user_agent";`);
  }

}
