import { Migration } from '@mikro-orm/migrations';

export class Migration20261123015715 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "reactor" ("id" uuid not null, "tenant_id" uuid not null, "name" varchar(255) not null, "event_type" varchar(255) not null, "is_active" boolean not null default true, "conditions" jsonb null, "reactions" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "reactor_pkey" primary key ("id"));`);
    this.addSql(`create index "reactor_tenant_id_event_type_index" on "reactor" ("tenant_id", "event_type");`);
    this.addSql(`alter table "reactor" add constraint "reactor_tenant_id_name_unique" unique ("tenant_id", "name");`);

    this.addSql(`create table "ledger_entry" ("id" uuid not null, "tenant_id" uuid not null, "user_id" uuid not null, "kind" text check ("kind" in ('EARN', 'SPEND', 'EXPIRY', 'REVERSAL', 'ADJUSTMENT')) not null, "points" int not null, "event_id" bigint null, "reactor_id" uuid null, "purchase_id" uuid null, "created_at" timestamptz not null, "expires_at" timestamptz null, constraint "ledger_entry_pkey" primary key ("id"));`);
    this.addSql(`create index "ledger_entry_tenant_id_user_id_created_at_index" on "ledger_entry" ("tenant_id", "user_id", "created_at");`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_event_id_reactor_id_unique" unique ("event_id", "reactor_id");`);

    this.addSql(`create table "event" ("id" bigint not null, "tenant_id" uuid not null, "type_id" uuid not null, "user_id" uuid null, "payload" jsonb not null, "reported_at" timestamptz not null, "occurred_at" timestamptz null, "registered_at" timestamptz not null, "reacted_at" timestamptz null, "reactions" jsonb not null, "total_points" int not null, constraint "event_pkey" primary key ("id"));`);
    this.addSql(`create index "event_tenant_id_reported_at_index" on "event" ("tenant_id", "reported_at");`);
    this.addSql(`create index "event_tenant_id_user_id_reported_at_index" on "event" ("tenant_id", "user_id", "reported_at");`);

    this.addSql(`create table "wallet" ("user_id" uuid not null, "tenant_id" uuid not null, "points" int not null default 0, "lifetime_earn" int not null default 0, "updated_at" timestamptz not null, constraint "wallet_pkey" primary key ("user_id"), constraint wallet_points_not_negative check (points >= 0));`);

    this.addSql(`alter table "reactor" add constraint "reactor_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_user_id_foreign" foreign key ("user_id") references "member" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "event" add constraint "event_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "event" add constraint "event_type_id_foreign" foreign key ("type_id") references "event_type" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "event" add constraint "event_user_id_foreign" foreign key ("user_id") references "member" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "wallet" add constraint "wallet_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "wallet" add constraint "wallet_user_id_foreign" foreign key ("user_id") references "member" ("id") on update cascade on delete cascade;`);

    // Event ids are handed out in blocks of 100 per process (shared/events/event-ids.ts): one round
    // trip per hundred events, and a sequence never gives a number twice, even after Redis loses data.
    this.addSql(`create sequence "event_id_seq" increment by 100 minvalue 1 start with 1;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "reactor" cascade;`);

    this.addSql(`drop table if exists "ledger_entry" cascade;`);

    this.addSql(`drop table if exists "event" cascade;`);

    this.addSql(`drop table if exists "wallet" cascade;`);

    this.addSql(`drop sequence if exists "event_id_seq";`);
  }

}
