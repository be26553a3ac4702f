import { Migration } from '@mikro-orm/migrations';

/** When a claim's image fetch began (issue 31): a retry after a crash charges the attempt cut short to the claim's budget. */
export class Migration20261128100628 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "receipt" add column "image_fetch_started_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "receipt" drop column "image_fetch_started_at";`);
  }

}
