import { Migration } from '@mikro-orm/migrations';

export class Migration20261127221516 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "points_lot" ("entry_id" uuid not null, "tenant_id" uuid not null, "user_id" uuid not null, "expires_at" timestamptz not null, "remaining" bigint not null, constraint "points_lot_pkey" primary key ("entry_id"), constraint points_lot_remaining_positive check (remaining > 0));`);
    this.addSql(`create index "points_lot_user_id_expires_at_index" on "points_lot" ("user_id", "expires_at");`);
    this.addSql(`create index "points_lot_expires_at_entry_id_index" on "points_lot" ("expires_at", "entry_id");`);

    this.addSql(`create table "points_day" ("user_id" uuid not null, "day" date not null, "tenant_id" uuid not null, "earned" bigint not null default 0, "spent" bigint not null default 0, constraint "points_day_pkey" primary key ("user_id", "day"));`);

    this.addSql(`alter table "points_lot" add constraint "points_lot_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "points_lot" add constraint "points_lot_user_id_foreign" foreign key ("user_id") references "member" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "points_day" add constraint "points_day_user_id_foreign" foreign key ("user_id") references "member" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "points_day" add constraint "points_day_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    // The days of what was earned and spent before this migration, so caps and tiers count them
    // too: a reversal counts on its EARN's day and a refund on its SPEND's, as the ledger writes them.
    this.addSql(`insert into "points_day" ("user_id", "day", "tenant_id", "earned", "spent")
      select le.user_id, (coalesce(undone.created_at, le.created_at) at time zone coalesce(t.configuration->>'timezone', 'UTC'))::date,
             le.tenant_id,
             sum(case when le.kind = 'EARN' or (le.kind = 'REVERSAL' and le.reverses_entry_id is not null) then le.points else 0 end),
             sum(case when le.kind = 'SPEND' or (le.kind = 'REVERSAL' and le.purchase_id is not null) then -le.points else 0 end)
        from "ledger_entry" le
        join "tenant" t on t.id = le.tenant_id
        left join "ledger_entry" undone on le.kind = 'REVERSAL'
          and (undone.id = le.reverses_entry_id or (undone.kind = 'SPEND' and undone.purchase_id = le.purchase_id))
       where le.kind in ('EARN', 'SPEND', 'REVERSAL')
       group by 1, 2, 3;`);

    this.addSql(`alter table "ledger_entry" add column "expires_entry_id" uuid null, add column "requested_points" bigint null, add column "job_id" uuid null;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_expires_entry_id_unique" unique ("expires_entry_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "points_lot" cascade;`);

    this.addSql(`drop table if exists "points_day" cascade;`);

    this.addSql(`alter table "ledger_entry" drop constraint "ledger_entry_expires_entry_id_unique";`);
    this.addSql(`alter table "ledger_entry" drop column "expires_entry_id", drop column "requested_points", drop column "job_id";`);
  }

}
