import { Migration } from '@mikro-orm/migrations';

/**
 * Members' email addresses are unique whatever their case: the duplicate-contact check compares them
 * lowered. Written by hand: MikroORM's schema diff does not see a changed index expression.
 */
export class Migration20261125080000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index if exists "member_tenant_id_email_index";`);
    this.addSql(`create index "member_tenant_id_email_index" on "member" ("tenant_id", lower("profile"->>'emailAddress'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "member_tenant_id_email_index";`);
    this.addSql(`create index "member_tenant_id_email_index" on "member" ("tenant_id", ("profile"->>'emailAddress'));`);
  }
}
