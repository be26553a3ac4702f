import { Migration } from '@mikro-orm/migrations';

export class Migration20261123161234 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop index "receipt_tenant_id_image_hash_index";`);

    this.addSql(`create index "receipt_image_hash_index" on "receipt" ("tenant_id", "image_hash") where "image_hash" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "receipt_image_hash_index";`);

    this.addSql(`create index "receipt_tenant_id_image_hash_index" on "receipt" ("tenant_id", "image_hash");`);
  }

}
