import { Migration } from '@mikro-orm/migrations';

export class Migration20261123123043 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "rule_set" ("id" uuid not null, "tenant_id" uuid not null, "name" varchar(255) null, "is_active" boolean not null, "scope" jsonb null, "rules" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "rule_set_pkey" primary key ("id"));`);
    this.addSql(`create index "rule_set_tenant_id_is_active_index" on "rule_set" ("tenant_id", "is_active");`);

    this.addSql(`create table "product" ("id" uuid not null, "tenant_id" uuid not null, "name" varchar(255) not null, "identifiers" jsonb not null, "unit_price" numeric(14,4) null, "is_active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "product_pkey" primary key ("id"));`);
    this.addSql(`create index "product_tenant_id_created_at_index" on "product" ("tenant_id", "created_at");`);

    this.addSql(`create table "product_identifier" ("id" uuid not null, "tenant_id" uuid not null, "product_id" uuid not null, "key" varchar(255) not null, constraint "product_identifier_pkey" primary key ("id"));`);
    this.addSql(`create index "product_identifier_product_id_index" on "product_identifier" ("product_id");`);
    this.addSql(`alter table "product_identifier" add constraint "product_identifier_tenant_id_key_unique" unique ("tenant_id", "key");`);

    this.addSql(`create table "venue" ("id" uuid not null, "tenant_id" uuid not null, "name" varchar(255) not null, "identifiers" jsonb not null, "position" jsonb null, "radius_meters" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "venue_pkey" primary key ("id"));`);
    this.addSql(`create index "venue_tenant_id_created_at_index" on "venue" ("tenant_id", "created_at");`);

    this.addSql(`alter table "rule_set" add constraint "rule_set_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "product" add constraint "product_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "product_identifier" add constraint "product_identifier_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "product_identifier" add constraint "product_identifier_product_id_foreign" foreign key ("product_id") references "product" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "venue" add constraint "venue_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "product_identifier" drop constraint "product_identifier_product_id_foreign";`);

    this.addSql(`drop table if exists "rule_set" cascade;`);

    this.addSql(`drop table if exists "product" cascade;`);

    this.addSql(`drop table if exists "product_identifier" cascade;`);

    this.addSql(`drop table if exists "venue" cascade;`);
  }

}
