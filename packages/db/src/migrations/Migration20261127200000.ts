import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 40: a form's stream of events (`GET …/events`, `lfk listen`) is read in commit order, so
 * a submission that commits after a later one, or one released from spam, is never behind a
 * reader's cursor. Each submission keeps the id of the transaction that wrote it (or released it):
 * `stream_seq`. Those already kept share this migration's.
 */
export class Migration20261127200000 extends Migration {
  override name = 'Migration20261127200000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "submissions" add "stream_seq" bigint not null default ((pg_current_xact_id())::text)::bigint;`);
    this.addSql(`create index "submissions_stream_index" on "submissions" ("form_id", "stream_seq", "id") where "status" = 'ok';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "submissions_stream_index";`);
    this.addSql(`alter table "submissions" drop column "stream_seq";`);
  }
}
