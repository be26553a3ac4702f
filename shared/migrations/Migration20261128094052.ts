import { Migration } from '@mikro-orm/migrations';

/** The total a manual review gives (decisions §14), kept on the review as well as on the receipt it corrects. */
export class Migration20261128094052 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "receipt_review" add column "corrected_total" numeric(14,4) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "receipt_review" drop column "corrected_total";`);
  }

}
