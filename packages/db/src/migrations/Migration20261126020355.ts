import { Migration } from '@mikro-orm/migrations';

export class Migration20261126020355 extends Migration {

  override name = 'Migration20261126020355';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add "notify_email_fallback" varchar(254) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "forms" drop column "notify_email_fallback";`);
  }

}
