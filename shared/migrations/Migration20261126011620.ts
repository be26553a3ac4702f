import { Migration } from '@mikro-orm/migrations';

export class Migration20261126011620 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "reward" ("id" uuid not null, "tenant_id" uuid not null, "type" text check ("type" in ('VOUCHER', 'PARTNER1_PRODUCT', 'PARTNER2_PRODUCT')) not null, "name" varchar(255) not null, "summary" text null, "picture_url" text null, "price" bigint not null, "cost" numeric(14,4) not null default 0, "purchasable" boolean not null default true, "available_from" timestamptz null, "available_until" timestamptz null, "stock" int null, "voucher_validity_days" int not null, "redemption_window_minutes" int not null, "default_locale" varchar(255) not null, "redemption_message" text null, "discounts" jsonb not null, "has_pool" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "reward_pkey" primary key ("id"), constraint reward_stock_not_negative check (stock >= 0), constraint reward_price_not_negative check (price >= 0));`);
    this.addSql(`create index "reward_tenant_id_created_at_index" on "reward" ("tenant_id", "created_at");`);

    this.addSql(`create table "reward_code" ("id" uuid not null, "tenant_id" uuid not null, "reward_id" uuid not null, "code_hash" varchar(255) not null, "sealed_code" text not null, "created_at" timestamptz not null, "reserved_at" timestamptz null, constraint "reward_code_pkey" primary key ("id"));`);
    this.addSql(`create index "reward_code_available_index" on "reward_code" ("reward_id") where "reserved_at" is null;`);
    this.addSql(`alter table "reward_code" add constraint "reward_code_tenant_id_code_hash_unique" unique ("tenant_id", "code_hash");`);

    this.addSql(`create table "purchase" ("id" uuid not null, "tenant_id" uuid not null, "user_id" uuid not null, "reward_id" uuid not null, "resource_type" text check ("resource_type" in ('REWARD', 'PARTNER1_PRODUCT', 'PARTNER2_PRODUCT')) not null, "points" bigint not null, "cost" numeric(14,4) not null, "voucher_id" uuid null, "created_at" timestamptz not null, constraint "purchase_pkey" primary key ("id"));`);
    this.addSql(`alter table "purchase" add constraint "purchase_voucher_id_unique" unique ("voucher_id");`);
    this.addSql(`create index "purchase_tenant_id_created_at_index" on "purchase" ("tenant_id", "created_at");`);
    this.addSql(`create index "purchase_tenant_id_user_id_created_at_index" on "purchase" ("tenant_id", "user_id", "created_at");`);
    this.addSql(`create index "purchase_tenant_id_reward_id_created_at_index" on "purchase" ("tenant_id", "reward_id", "created_at");`);

    this.addSql(`create table "voucher" ("id" uuid not null, "tenant_id" uuid not null, "user_id" uuid not null, "reward_id" uuid not null, "code_id" uuid not null, "purchase_id" uuid null, "event_id" bigint null, "reactor_id" uuid null, "cost" numeric(14,4) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "redeemed_at" timestamptz null, "redemption_ends_at" timestamptz null, "burned_at" timestamptz null, "updated_at" timestamptz not null, constraint "voucher_pkey" primary key ("id"));`);
    this.addSql(`alter table "voucher" add constraint "voucher_code_id_unique" unique ("code_id");`);
    this.addSql(`alter table "voucher" add constraint "voucher_purchase_id_unique" unique ("purchase_id");`);
    this.addSql(`create index "voucher_tenant_id_user_id_created_at_index" on "voucher" ("tenant_id", "user_id", "created_at");`);
    this.addSql(`alter table "voucher" add constraint "voucher_event_id_reactor_id_unique" unique ("event_id", "reactor_id");`);

    this.addSql(`alter table "reward" add constraint "reward_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "reward_code" add constraint "reward_code_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "reward_code" add constraint "reward_code_reward_id_foreign" foreign key ("reward_id") references "reward" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "purchase" add constraint "purchase_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "purchase" add constraint "purchase_user_id_foreign" foreign key ("user_id") references "member" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "purchase" add constraint "purchase_reward_id_foreign" foreign key ("reward_id") references "reward" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "voucher" add constraint "voucher_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "voucher" add constraint "voucher_user_id_foreign" foreign key ("user_id") references "member" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "voucher" add constraint "voucher_reward_id_foreign" foreign key ("reward_id") references "reward" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "voucher" add constraint "voucher_code_id_foreign" foreign key ("code_id") references "reward_code" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "reward_code" drop constraint "reward_code_reward_id_foreign";`);

    this.addSql(`alter table "purchase" drop constraint "purchase_reward_id_foreign";`);

    this.addSql(`alter table "voucher" drop constraint "voucher_reward_id_foreign";`);

    this.addSql(`alter table "voucher" drop constraint "voucher_code_id_foreign";`);

    this.addSql(`drop table if exists "reward" cascade;`);

    this.addSql(`drop table if exists "reward_code" cascade;`);

    this.addSql(`drop table if exists "purchase" cascade;`);

    this.addSql(`drop table if exists "voucher" cascade;`);
  }

}
