import { Migration } from '@mikro-orm/migrations';

export class Migration20261126015446 extends Migration {

  override name = 'Migration20261126015446';

  override up(): void | Promise<void> {
    this.addSql(`alter table "device_logins" add "requested_ip" varchar(64) null, add "requested_user_agent" varchar(512) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "device_logins" drop column "requested_ip", drop column "requested_user_agent";`);
  }

}
