import { Migration } from '@mikro-orm/migrations';

export class Migration20261125200000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "ledger_entry" add column "reason" text null, add column "actor" varchar(255) null;`);
    this.addSql(`create unique index "ledger_entry_spend_purchase_id_unique" on "ledger_entry" ("purchase_id") where "kind" = 'SPEND';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "ledger_entry_spend_purchase_id_unique";`);
    this.addSql(`alter table "ledger_entry" drop column "reason", drop column "actor";`);
  }

}
