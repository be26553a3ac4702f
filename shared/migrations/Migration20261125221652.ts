import { Migration } from '@mikro-orm/migrations';

export class Migration20261125221652 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "tenant" add column "disabled_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "tenant" drop column "disabled_at";`);
  }

}
