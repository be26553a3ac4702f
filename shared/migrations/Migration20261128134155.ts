import { Migration } from '@mikro-orm/migrations';

/**
 * Claims read from an image keep its perceptual hash, and each tenant's hashes are indexed apart, for
 * the DUPLICATE check's other photo of a receipt (docs/receipts.md#automated-checks). Claims read
 * before have none, and are compared by their SHA-256 and details only.
 */
export class Migration20261128134155 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "receipt" add column "perceptual_hash" bit(256) null;`);
    this.addSql(`create index "receipt_perceptual_hash_index" on "receipt" ("tenant_id") include ("perceptual_hash") where "perceptual_hash" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "receipt_perceptual_hash_index";`);
    this.addSql(`alter table "receipt" drop column "perceptual_hash";`);
  }
}
