import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: "Retry now" sends one attempt and leaves the automatic schedule as it was. A delivery a
 * member retried carries `retry_requested` until that attempt is made (it is not counted in
 * `attempt_count`, the schedule's position), and `resume_at`, when it was due before the retry:
 * if the attempt fails, the schedule picks up there.
 */
export class Migration20261127140000 extends Migration {
  override name = 'Migration20261127140000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" add "retry_requested" boolean not null default false, add "resume_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "webhook_deliveries" drop column "retry_requested", drop column "resume_at";`);
  }
}
