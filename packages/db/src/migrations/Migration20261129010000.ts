import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 42: second factors (TOTP on the account, passkeys, recovery codes), authentications waiting
 * for their second half, when a session last proved its person (sudo mode), and workspaces that
 * require a second factor of their members.
 */
export class Migration20261129010000 extends Migration {
  override name = 'Migration20261129010000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "users" add "totp_secret_sealed" text null, add "totp_enabled_at" timestamptz null, add "totp_last_step" bigint null;`);
    // A session signed in before this knows no better moment than its start.
    this.addSql(`alter table "workspaces" add "require_two_factor" boolean not null default false;`);
    this.addSql(`alter table "sessions" add "authenticated_at" timestamptz null;`);
    this.addSql(`update "sessions" set "authenticated_at" = "created_at";`);
    this.addSql(`alter table "sessions" alter column "authenticated_at" set not null;`);

    this.addSql(`create table "recovery_codes" ("id" varchar(40) not null, "created_at" timestamptz not null, "user_id" varchar(40) not null, "code_hash" varchar(64) not null, "used_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "recovery_codes" add constraint "recovery_codes_user_id_code_hash_unique" unique ("user_id", "code_hash");`);
    this.addSql(`alter table "recovery_codes" add constraint "recovery_codes_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`create table "passkeys" ("id" varchar(40) not null, "created_at" timestamptz not null, "user_id" varchar(40) not null, "credential_id" varchar(1400) not null, "public_key" text not null, "counter" bigint not null, "transports" jsonb not null, "name" varchar(64) not null, "last_used_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "passkeys" add constraint "passkeys_credential_id_unique" unique ("credential_id");`);
    this.addSql(`create index "passkeys_user_id_id_index" on "passkeys" ("user_id", "id");`);
    this.addSql(`alter table "passkeys" add constraint "passkeys_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`create table "auth_challenges" ("id" varchar(40) not null, "created_at" timestamptz not null, "purpose" text not null, "token_hash" varchar(64) null, "user_id" varchar(40) null, "webauthn_challenge" varchar(128) null, "secret_sealed" text null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "auth_challenges" add constraint "auth_challenges_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "auth_challenges_user_id_purpose_index" on "auth_challenges" ("user_id", "purpose");`);
    this.addSql(`create index "auth_challenges_expires_at_index" on "auth_challenges" ("expires_at");`);
    this.addSql(`alter table "auth_challenges" add constraint "auth_challenges_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`);
    this.addSql(`alter table "auth_challenges" add constraint "auth_challenges_purpose_check" check ("purpose" in ('second_factor', 'passkey_sign_in', 'passkey_registration', 'totp_enrolment', 'reauthentication'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "auth_challenges" cascade;`);
    this.addSql(`drop table if exists "passkeys" cascade;`);
    this.addSql(`drop table if exists "recovery_codes" cascade;`);
    this.addSql(`alter table "sessions" drop column "authenticated_at";`);
    this.addSql(`alter table "workspaces" drop column "require_two_factor";`);
    this.addSql(`alter table "users" drop column "totp_secret_sealed", drop column "totp_enabled_at", drop column "totp_last_step";`);
  }
}
