import { Migration } from '@mikro-orm/migrations';

export class Migration20261125163239 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "idempotency_record" add column "reserved_id" varchar(255) null, add column "claim_token" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_record" drop column "reserved_id", drop column "claim_token";`);
  }

}
