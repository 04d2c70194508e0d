import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 36: each delivery carries the URL it was queued for, so moving an endpoint never sends
 * what was queued before to the new URL; what waited for the old one is `held` for a member to
 * retry or discard (`discarded`). Deliveries already queued take their endpoint's URL of now.
 */
export class Migration20261127043557 extends Migration {

  override name = 'Migration20261127043557';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_status_check";`);
    this.addSql(`alter table "webhook_deliveries" add "url" varchar(2048) null;`);
    this.addSql(`update "webhook_deliveries" d set "url" = e."url" from "webhook_endpoints" e where e."id" = d."endpoint_id";`);
    this.addSql(`alter table "webhook_deliveries" alter column "url" set not null;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ('pending', 'succeeded', 'failed', 'held', 'discarded'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop constraint "webhook_deliveries_status_check";`);
    // Without a URL of their own, held deliveries would go to wherever the endpoint points now.
    this.addSql(`update "webhook_deliveries" set "status" = 'failed', "next_attempt_at" = null where "status" in ('held', 'discarded');`);
    this.addSql(`alter table "webhook_deliveries" drop column "url";`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_status_check" check ("status" in ('pending', 'succeeded', 'failed'));`);
  }

}
