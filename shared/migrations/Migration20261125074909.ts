import { Migration } from '@mikro-orm/migrations';

export class Migration20261125074909 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "ledger_entry" alter column "points" type bigint using ("points"::bigint);`);

    this.addSql(`alter table "event" alter column "total_points" type bigint using ("total_points"::bigint);`);

    this.addSql(`alter table "wallet" alter column "points" type bigint using ("points"::bigint);`);
    this.addSql(`alter table "wallet" alter column "lifetime_earn" type bigint using ("lifetime_earn"::bigint);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "event" alter column "total_points" type int4 using ("total_points"::int4);`);

    this.addSql(`alter table "ledger_entry" alter column "points" type int4 using ("points"::int4);`);

    this.addSql(`alter table "wallet" alter column "points" type int4 using ("points"::int4);`);
    this.addSql(`alter table "wallet" alter column "lifetime_earn" type int4 using ("lifetime_earn"::int4);`);
  }

}
