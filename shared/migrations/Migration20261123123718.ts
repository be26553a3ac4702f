import { Migration } from '@mikro-orm/migrations';

export class Migration20261123123718 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "pos_order" ("id" uuid not null, "tenant_id" uuid not null, "transaction_id" varchar(255) not null, "location_id" varchar(255) not null, "cashier_id" varchar(255) null, "total" numeric(14,4) not null, "subtotal" numeric(14,4) null, "currency" varchar(3) null, "line_items" jsonb not null, "occurred_at" timestamptz null, "submitter_id" uuid null, "event_id" bigint null, "created_at" timestamptz not null, constraint "pos_order_pkey" primary key ("id"));`);
    this.addSql(`create index "pos_order_tenant_id_created_at_index" on "pos_order" ("tenant_id", "created_at");`);
    this.addSql(`alter table "pos_order" add constraint "pos_order_tenant_id_location_id_transaction_id_unique" unique ("tenant_id", "location_id", "transaction_id");`);

    this.addSql(`alter table "pos_order" add constraint "pos_order_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "pos_order" add constraint "pos_order_submitter_id_foreign" foreign key ("submitter_id") references "member" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "pos_order" cascade;`);
  }

}
