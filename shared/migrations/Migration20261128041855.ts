import { Migration } from '@mikro-orm/migrations';

export class Migration20261128041855 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "referral_campaign" ("id" uuid not null, "tenant_id" uuid not null, "name" varchar(256) not null, "link_config" jsonb not null, "is_active" boolean not null, "referral_code_type" text check ("referral_code_type" in ('LINK', 'CODE', 'STATIC_USER_CODE', 'STATIC_USER_WORD_CODE')) not null, "tranches" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "referral_campaign_pkey" primary key ("id"));`);
    this.addSql(`create index "referral_campaign_tenant_id_created_at_index" on "referral_campaign" ("tenant_id", "created_at");`);
    this.addSql(`create unique index "referral_campaign_one_active" on "referral_campaign" ("tenant_id") where "is_active";`);

    this.addSql(`create table "referral_code" ("id" uuid not null, "tenant_id" uuid not null, "campaign_id" uuid not null, "member_id" uuid not null, "invite_code" varchar(255) not null, "invite_link" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "referral_code_pkey" primary key ("id"));`);
    this.addSql(`create index "referral_code_tenant_id_invite_code_index" on "referral_code" ("tenant_id", "invite_code");`);
    this.addSql(`alter table "referral_code" add constraint "referral_code_campaign_id_member_id_unique" unique ("campaign_id", "member_id");`);
    this.addSql(`alter table "referral_code" add constraint "referral_code_campaign_id_invite_code_unique" unique ("campaign_id", "invite_code");`);

    this.addSql(`create table "referral_activity" ("id" uuid not null, "tenant_id" uuid not null, "code_id" uuid not null, "campaign_id" uuid not null, "source" varchar(255) not null, "source_user_id" varchar(256) not null, "user_agent" varchar(255) null, "created_at" timestamptz not null, constraint "referral_activity_pkey" primary key ("id"));`);
    this.addSql(`create index "referral_activity_campaign_id_index" on "referral_activity" ("campaign_id");`);

    this.addSql(`create table "referral" ("id" uuid not null, "tenant_id" uuid not null, "code_id" uuid not null, "campaign_id" uuid not null, "referrer_id" uuid not null, "referred_id" uuid not null, "source" varchar(255) not null, "source_user_id" varchar(256) not null, "user_agent" varchar(255) null, "ip_address" varchar(255) null, "tranche" varchar(256) null, "registration_event_id" bigint null, "completed_event_id" bigint null, "created_at" timestamptz not null, constraint "referral_pkey" primary key ("id"));`);
    this.addSql(`create index "referral_campaign_id_referrer_id_index" on "referral" ("campaign_id", "referrer_id");`);
    this.addSql(`create index "referral_created_at_index" on "referral" ("created_at");`);
    this.addSql(`alter table "referral" add constraint "referral_referred_id_unique" unique ("referred_id");`);
    this.addSql(`alter table "referral" add constraint "referral_code_id_source_source_user_id_unique" unique ("code_id", "source", "source_user_id");`);

    this.addSql(`alter table "referral_campaign" add constraint "referral_campaign_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "referral_code" add constraint "referral_code_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "referral_code" add constraint "referral_code_campaign_id_foreign" foreign key ("campaign_id") references "referral_campaign" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "referral_code" add constraint "referral_code_member_id_foreign" foreign key ("member_id") references "member" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "referral_activity" add constraint "referral_activity_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "referral_activity" add constraint "referral_activity_code_id_foreign" foreign key ("code_id") references "referral_code" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "referral_activity" add constraint "referral_activity_campaign_id_foreign" foreign key ("campaign_id") references "referral_campaign" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "referral" add constraint "referral_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "referral" add constraint "referral_code_id_foreign" foreign key ("code_id") references "referral_code" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "referral" add constraint "referral_campaign_id_foreign" foreign key ("campaign_id") references "referral_campaign" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "referral" add constraint "referral_referrer_id_foreign" foreign key ("referrer_id") references "member" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "referral" add constraint "referral_referred_id_foreign" foreign key ("referred_id") references "member" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "referral_code" drop constraint "referral_code_campaign_id_foreign";`);

    this.addSql(`alter table "referral_activity" drop constraint "referral_activity_campaign_id_foreign";`);

    this.addSql(`alter table "referral" drop constraint "referral_campaign_id_foreign";`);

    this.addSql(`alter table "referral_activity" drop constraint "referral_activity_code_id_foreign";`);

    this.addSql(`alter table "referral" drop constraint "referral_code_id_foreign";`);

    this.addSql(`drop table if exists "referral_campaign" cascade;`);

    this.addSql(`drop table if exists "referral_code" cascade;`);

    this.addSql(`drop table if exists "referral_activity" cascade;`);

    this.addSql(`drop table if exists "referral" cascade;`);
  }

}
