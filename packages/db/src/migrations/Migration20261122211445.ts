import { Migration } from '@mikro-orm/migrations';

export class Migration20261122211445 extends Migration {

  override name = 'Migration20261122211445';

  override up(): void | Promise<void> {
    this.addSql(`create table "rate_limit_buckets" ("limit_name" varchar(32) not null, "subject" varchar(320) not null, "tat_ms" bigint not null, primary key ("limit_name", "subject"));`);
    this.addSql(`create index "rate_limit_buckets_tat_ms_index" on "rate_limit_buckets" ("tat_ms");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "rate_limit_buckets" cascade;`);
  }

}
