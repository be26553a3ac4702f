import { Migration } from '@mikro-orm/migrations';

export class Migration20261123011726 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "tenant" ("id" uuid not null, "name" varchar(255) not null, "slug" varchar(255) not null, "api_key_prefix" varchar(255) not null, "api_key_hash" varchar(255) not null, "authentication" jsonb null, "configuration" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "tenant_pkey" primary key ("id"));`);
    this.addSql(`alter table "tenant" add constraint "tenant_slug_unique" unique ("slug");`);
    this.addSql(`alter table "tenant" add constraint "tenant_api_key_prefix_unique" unique ("api_key_prefix");`);

    this.addSql(`create table "idempotency_record" ("id" uuid not null, "tenant_id" uuid not null, "key" varchar(255) not null, "request_hash" varchar(255) not null, "response_status" int null, "response_body" text null, "created_at" timestamptz not null, "completed_at" timestamptz null, constraint "idempotency_record_pkey" primary key ("id"));`);
    this.addSql(`create index "idempotency_record_created_at_index" on "idempotency_record" ("created_at");`);
    this.addSql(`alter table "idempotency_record" add constraint "idempotency_record_tenant_id_key_unique" unique ("tenant_id", "key");`);

    this.addSql(`create table "event_type" ("id" uuid not null, "tenant_id" uuid not null, "name" varchar(255) not null, "description" text not null, "is_private" boolean not null, "schema" jsonb null, "omit_from_user_activity" boolean not null default false, "is_active" boolean not null default true, "secret_hash" varchar(255) null, "is_system" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "event_type_pkey" primary key ("id"));`);
    this.addSql(`alter table "event_type" add constraint "event_type_tenant_id_name_unique" unique ("tenant_id", "name");`);

    this.addSql(`create table "audit_entry" ("id" uuid not null, "tenant_id" uuid not null, "actor_subject" varchar(255) not null, "actor_scopes" jsonb not null, "action" varchar(255) not null, "resource_type" varchar(255) not null, "resource_id" varchar(255) not null, "before" jsonb null, "after" jsonb null, "occurred_at" timestamptz not null, "recorded_at" timestamptz not null, constraint "audit_entry_pkey" primary key ("id"));`);
    this.addSql(`create index "audit_entry_tenant_id_occurred_at_index" on "audit_entry" ("tenant_id", "occurred_at");`);

    this.addSql(`alter table "idempotency_record" add constraint "idempotency_record_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "event_type" add constraint "event_type_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "audit_entry" add constraint "audit_entry_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_record" drop constraint "idempotency_record_tenant_id_foreign";`);

    this.addSql(`alter table "event_type" drop constraint "event_type_tenant_id_foreign";`);

    this.addSql(`alter table "audit_entry" drop constraint "audit_entry_tenant_id_foreign";`);

    this.addSql(`drop table if exists "tenant" cascade;`);

    this.addSql(`drop table if exists "idempotency_record" cascade;`);

    this.addSql(`drop table if exists "event_type" cascade;`);

    this.addSql(`drop table if exists "audit_entry" cascade;`);
  }

}
