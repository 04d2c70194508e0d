import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 50: a device's sign-in keeps when the session that approved it last proved its person, and
 * the device's session starts from there (never fresher than its approver). Approvals a device has
 * not collected yet knew no such moment: they are taken back, as a password change takes them back.
 */
export class Migration20261207010000 extends Migration {
  override name = 'Migration20261207010000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "device_logins" add "approver_authenticated_at" timestamptz null;`);
    this.addSql(`update "device_logins" set "state" = 'denied' where "state" = 'approved';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "device_logins" drop column "approver_authenticated_at";`);
  }
}
