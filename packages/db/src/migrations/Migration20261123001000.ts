import { Migration } from '@mikro-orm/migrations';

/** Sign-ins approved from the dashboard for another device (`lfk login --web`). */
export class Migration20261123001000 extends Migration {
  override name = 'Migration20261123001000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "device_logins" ("id" varchar(40) not null, "created_at" timestamptz not null, "device_code_hash" varchar(64) not null, "user_code" varchar(8) not null, "device_name" varchar(100) not null, "state" text check ("state" in ('pending', 'approved', 'denied', 'used')) not null default 'pending', "user_id" varchar(40) null, "expires_at" timestamptz not null, "last_polled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "device_logins" add constraint "device_logins_device_code_hash_unique" unique ("device_code_hash");`);
    this.addSql(`alter table "device_logins" add constraint "device_logins_user_code_unique" unique ("user_code");`);
    this.addSql(
      `alter table "device_logins" add constraint "device_logins_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "device_logins" cascade;`);
  }
}
