import { Migration } from '@mikro-orm/migrations';

export class Migration20261128005848 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "receipt_ocr_read" ("receipt_id" uuid not null, "tenant_id" uuid not null, "engine" varchar(255) not null, "confidence" numeric(5,4) not null, "width" int not null, "height" int not null, "lines" jsonb not null, "read_at" timestamptz not null, constraint "receipt_ocr_read_pkey" primary key ("receipt_id"));`);
    this.addSql(`create index "receipt_ocr_read_tenant_id_index" on "receipt_ocr_read" ("tenant_id");`);

    this.addSql(`alter table "receipt_ocr_read" add constraint "receipt_ocr_read_receipt_id_foreign" foreign key ("receipt_id") references "receipt" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "receipt_ocr_read" add constraint "receipt_ocr_read_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "receipt_ocr_read" cascade;`);
  }

}
