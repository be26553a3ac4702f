import { Migration } from '@mikro-orm/migrations';

export class Migration20261128042007 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "consent_type" ("id" uuid not null, "tenant_id" uuid not null, "name" varchar(255) not null, "required" boolean not null, "default_locale" varchar(255) not null, "descriptions" jsonb not null, "version" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "consent_type_pkey" primary key ("id"));`);
    this.addSql(`create index "consent_type_tenant_id_created_at_index" on "consent_type" ("tenant_id", "created_at");`);
    this.addSql(`alter table "consent_type" add constraint "consent_type_tenant_id_name_unique" unique ("tenant_id", "name");`);

    this.addSql(`create table "consent_type_version" ("id" uuid not null, "tenant_id" uuid not null, "consent_type_id" uuid not null, "version" int not null, "default_locale" varchar(255) not null, "descriptions" jsonb not null, "created_at" timestamptz not null, constraint "consent_type_version_pkey" primary key ("id"));`);
    this.addSql(`alter table "consent_type_version" add constraint "consent_type_version_consent_type_id_version_unique" unique ("consent_type_id", "version");`);

    this.addSql(`create table "member_consent" ("id" bigserial primary key, "tenant_id" uuid not null, "member_id" uuid not null, "consent_type_id" uuid not null, "version" int not null, "locale" varchar(255) not null, "requested_locale" varchar(255) null, "description" text null, "checked" boolean not null, "given_at" timestamptz not null);`);
    this.addSql(`create index "member_consent_current_index" on "member_consent" ("tenant_id", "member_id", "consent_type_id", "id" desc);`);

    this.addSql(`alter table "consent_type" add constraint "consent_type_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "consent_type_version" add constraint "consent_type_version_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "consent_type_version" add constraint "consent_type_version_consent_type_id_foreign" foreign key ("consent_type_id") references "consent_type" ("id") on update cascade;`);

    this.addSql(`alter table "member_consent" add constraint "member_consent_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "member_consent" add constraint "member_consent_member_id_foreign" foreign key ("member_id") references "member" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "member_consent" add constraint "member_consent_consent_type_id_foreign" foreign key ("consent_type_id") references "consent_type" ("id") on update cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "consent_type_version" drop constraint "consent_type_version_consent_type_id_foreign";`);

    this.addSql(`alter table "member_consent" drop constraint "member_consent_consent_type_id_foreign";`);

    this.addSql(`drop table if exists "consent_type" cascade;`);

    this.addSql(`drop table if exists "consent_type_version" cascade;`);

    this.addSql(`drop table if exists "member_consent" cascade;`);
  }

}
