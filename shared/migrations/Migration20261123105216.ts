import { Migration } from '@mikro-orm/migrations';

export class Migration20261123105216 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "idempotency_record" add column "claimed_until" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_record" drop column "claimed_until";`);
  }

}
