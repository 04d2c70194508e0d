import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 38: files sent with submissions. A file's row names its object in storage by an opaque key;
 * `object_deletions` lists objects to delete (an upload's, until its submission commits; a deleted
 * file's, at once). The trigger writes the second kind for every way a file row goes — its
 * submission deleted, its form, its workspace, retention — so no path can forget its objects.
 */

export class Migration20261127071829 extends Migration {

  override name = 'Migration20261127071829';

  override up(): void | Promise<void> {
    this.addSql(`create table "object_deletions" ("object_key" varchar(64) not null, "delete_after" timestamptz not null, primary key ("object_key"));`);
    this.addSql(`create index "object_deletions_delete_after_index" on "object_deletions" ("delete_after");`);

    this.addSql(`create table "submission_files" ("id" varchar(40) not null, "created_at" timestamptz not null, "submission_id" varchar(40) not null, "field" varchar(64) not null, "position" int not null, "name" varchar(255) not null, "size" int not null, "content_type" varchar(255) not null, "sha256" varchar(64) not null, "status" text not null default 'stored', "malware_signature" varchar(200) null, "object_key" varchar(64) not null, primary key ("id"));`);
    this.addSql(`alter table "submission_files" add constraint "submission_files_object_key_unique" unique ("object_key");`);
    this.addSql(`create index "submission_files_submission_id_position_index" on "submission_files" ("submission_id", "position");`);

    this.addSql(`alter table "workspaces" add "file_link_ttl" int null;`);

    this.addSql(`alter table "submission_files" add constraint "submission_files_submission_id_foreign" foreign key ("submission_id") references "submissions" ("id") on delete cascade;`);
    this.addSql(`alter table "submission_files" add constraint "submission_files_status_check" check ("status" in ('stored', 'quarantined'));`);
    this.addSql(`alter table "workspaces" add constraint "workspaces_file_link_ttl_check" check (file_link_ttl is null or file_link_ttl between 60 and 2592000);`);
    // Due at once, whatever the clocks: '-infinity' is before any sweep's "now".
    this.addSql(`create function "lfk_submission_file_deleted"() returns trigger language plpgsql as $$
begin
  insert into "object_deletions" ("object_key", "delete_after") values (old."object_key", '-infinity')
    on conflict ("object_key") do update set "delete_after" = '-infinity';
  return old;
end $$;`);
    this.addSql(`create trigger "submission_files_deleted" after delete on "submission_files" for each row execute function "lfk_submission_file_deleted"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "submission_files_deleted" on "submission_files";`);
    this.addSql(`drop function if exists "lfk_submission_file_deleted"();`);
    this.addSql(`drop table if exists "object_deletions" cascade;`);
    this.addSql(`drop table if exists "submission_files" cascade;`);

    this.addSql(`alter table "workspaces" drop column "file_link_ttl";`);
  }

}
