import { Migration } from '@mikro-orm/migrations';

export class Migration20261126031615 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "purchase" add column "partner_product_id" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "purchase" drop column "partner_product_id";`);
  }

}
