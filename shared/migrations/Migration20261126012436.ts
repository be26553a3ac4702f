import { Migration } from '@mikro-orm/migrations';

export class Migration20261126012436 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "reward" add column "partner_product_id" varchar(255) null;`);

    this.addSql(`alter table "purchase" add column "status" text check ("status" in ('PENDING', 'CONFIRMED', 'REFUNDED')) not null default 'CONFIRMED', add column "partner_reference" text null, add column "settled_at" timestamptz null, add column "failure_reason" text null;`);
    this.addSql(`create index "purchase_pending_index" on "purchase" ("created_at") where "status" = 'PENDING';`);

    this.addSql(`create unique index "ledger_entry_reversal_purchase_id_unique" on "ledger_entry" ("purchase_id") where "kind" = 'REVERSAL';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ledger_entry_reversal_purchase_id_unique";`);

    this.addSql(`drop index "purchase_pending_index";`);
    this.addSql(`alter table "purchase" drop column "status", drop column "partner_reference", drop column "settled_at", drop column "failure_reason";`);

    this.addSql(`alter table "reward" drop column "partner_product_id";`);
  }

}
