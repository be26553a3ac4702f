import { Migration } from '@mikro-orm/migrations';

export class Migration20261123020826 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "webhook" ("id" uuid not null, "tenant_id" uuid not null, "url" text not null, "event_types" jsonb not null, "secret" varchar(255) not null, "is_active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "webhook_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_tenant_id_is_active_index" on "webhook" ("tenant_id", "is_active");`);

    this.addSql(`create table "webhook_delivery" ("id" uuid not null, "tenant_id" uuid not null, "webhook_id" uuid not null, "event_id" bigint not null, "event_type" varchar(255) not null, "status" text check ("status" in ('PENDING', 'SUCCEEDED', 'FAILED')) not null, "attempts" jsonb not null, "created_at" timestamptz not null, "delivered_at" timestamptz null, constraint "webhook_delivery_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_delivery_tenant_id_created_at_index" on "webhook_delivery" ("tenant_id", "created_at");`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_webhook_id_event_id_unique" unique ("webhook_id", "event_id");`);

    this.addSql(`alter table "webhook" add constraint "webhook_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_webhook_id_foreign" foreign key ("webhook_id") references "webhook" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_delivery" drop constraint "webhook_delivery_webhook_id_foreign";`);

    this.addSql(`drop table if exists "webhook" cascade;`);

    this.addSql(`drop table if exists "webhook_delivery" cascade;`);
  }

}
