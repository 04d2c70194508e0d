import { Migration } from '@mikro-orm/migrations';

export class Migration20261126020527 extends Migration {

  override name = 'Migration20261126020527';

  override up(): void | Promise<void> {
    this.addSql(`alter table "forms" add "refused_origins" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "forms" drop column "refused_origins";`);
  }

}
