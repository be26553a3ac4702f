import { Migration } from '@mikro-orm/migrations';

export class Migration20261123015353 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "member" ("id" uuid not null, "tenant_id" uuid not null, "account_number" int not null, "auth_identifier" varchar(255) not null, "external_identifier" varchar(255) null, "is_restricted" boolean not null, "profile" jsonb not null, "flags" jsonb null, "linked_venues" jsonb not null, "erased_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "member_pkey" primary key ("id"));`);
    this.addSql(`create index "member_tenant_id_created_at_index" on "member" ("tenant_id", "created_at");`);
    this.addSql(`alter table "member" add constraint "member_tenant_id_auth_identifier_unique" unique ("tenant_id", "auth_identifier");`);
    this.addSql(`alter table "member" add constraint "member_tenant_id_account_number_unique" unique ("tenant_id", "account_number");`);

    this.addSql(`alter table "member" add constraint "member_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "tenant" add column "next_account_number" int not null default 1;`);

    this.addSql(`create index "member_tenant_id_email_index" on "member" ("tenant_id", ("profile"->>'emailAddress'));`);
    this.addSql(`create index "member_tenant_id_telephone_index" on "member" ("tenant_id", ("profile"->>'telephoneNumber'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "member" cascade;`);

    this.addSql(`alter table "tenant" drop column "next_account_number";`);
  }

}
