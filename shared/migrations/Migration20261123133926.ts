import { Migration } from '@mikro-orm/migrations';

export class Migration20261123133926 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "receipt_unparsed_index" on "receipt" ("created_at") where "parsed_at" is null;`);
    this.addSql(`create index "receipt_undecided_index" on "receipt" ("parsed_at") where "paramount_review_id" is null;`);

    this.addSql(`create index "receipt_review_reported_index" on "receipt_review" ("created_at") where "event_id" is not null;`);

    this.addSql(`create index "pos_order_reported_index" on "pos_order" ("created_at") where "event_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "pos_order_reported_index";`);

    this.addSql(`drop index "receipt_unparsed_index";`);
    this.addSql(`drop index "receipt_undecided_index";`);

    this.addSql(`drop index "receipt_review_reported_index";`);
  }

}
