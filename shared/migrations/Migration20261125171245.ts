import { Migration } from '@mikro-orm/migrations';

export class Migration20261125171245 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "receipt" add column "image_fetch_ms" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "receipt" drop column "image_fetch_ms";`);
  }

}
