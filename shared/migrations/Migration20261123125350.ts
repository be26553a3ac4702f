import { Migration } from '@mikro-orm/migrations';

export class Migration20261123125350 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "receipt_review_event_id_index" on "receipt_review" ("event_id");`);

    this.addSql(`alter table "ledger_entry" add column "reverses_entry_id" uuid null;`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_reverses_entry_id_unique" unique ("reverses_entry_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ledger_entry" drop constraint "ledger_entry_reverses_entry_id_unique";`);
    this.addSql(`alter table "ledger_entry" drop column "reverses_entry_id";`);

    this.addSql(`drop index "receipt_review_event_id_index";`);
  }

}
