import { Migration } from '@mikro-orm/migrations';

export class Migration20261128005843 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "receipt" add column "currency" varchar(3) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "receipt" drop column "currency";`);
  }

}
