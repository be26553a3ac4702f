import { Migration } from '@mikro-orm/migrations';

export class Migration20261124190219 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop index "receipt_tenant_id_service_date_total_index";`);

    this.addSql(`create index "receipt_barcode_index" on "receipt" ("tenant_id", "barcode") where "barcode" is not null;`);
    this.addSql(`create index "receipt_transaction_id_index" on "receipt" ("tenant_id", "transaction_id") where "transaction_id" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "receipt_barcode_index";`);
    this.addSql(`drop index "receipt_transaction_id_index";`);

    this.addSql(`create index "receipt_tenant_id_service_date_total_index" on "receipt" ("tenant_id", "service_date", "total");`);
  }

}
