import { Migration } from '@mikro-orm/migrations';

/**
 * Columns as long as their validation allows (256 characters): at 256 a value passed the body's
 * schema and failed the column. Lengthening a varchar without a USING clause rewrites nothing, so
 * the member table is not rewritten under its lock.
 */
export class Migration20261128051443 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "rule_set" alter column "name" type varchar(256);`);

    this.addSql(`alter table "reward" alter column "name" type varchar(256);`);

    this.addSql(`alter table "product" alter column "name" type varchar(256);`);

    this.addSql(`alter table "member" alter column "auth_identifier" type varchar(256);`);
    this.addSql(`alter table "member" alter column "external_identifier" type varchar(256);`);

    this.addSql(`alter table "venue" alter column "name" type varchar(256);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "member" alter column "auth_identifier" type varchar(255) using ("auth_identifier"::varchar(255));`);
    this.addSql(`alter table "member" alter column "external_identifier" type varchar(255) using ("external_identifier"::varchar(255));`);

    this.addSql(`alter table "product" alter column "name" type varchar(255) using ("name"::varchar(255));`);

    this.addSql(`alter table "reward" alter column "name" type varchar(255) using ("name"::varchar(255));`);

    this.addSql(`alter table "rule_set" alter column "name" type varchar(255) using ("name"::varchar(255));`);

    this.addSql(`alter table "venue" alter column "name" type varchar(255) using ("name"::varchar(255));`);
  }

}
