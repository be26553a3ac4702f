import { Migration } from '@mikro-orm/migrations';

/**
 * Account numbers come from a sequence per tenant (tenants/account-numbers.ts) instead of a
 * counter on the tenant's row, which held each registration's turn until its commit was on disk.
 * Each tenant's sequence starts where its counter stood.
 */
export class Migration20261202000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$
      declare t record;
      begin
        for t in select id, next_account_number from tenant loop
          execute format('create sequence %I start with %s', 'account_number_' || replace(t.id::text, '-', ''), t.next_account_number);
        end loop;
      end $$;`);
    this.addSql(`alter table "tenant" drop column "next_account_number";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "tenant" add column "next_account_number" int not null default 1;`);
    this.addSql(`do $$
      declare t record; next integer;
      begin
        for t in select id from tenant loop
          execute format('select case when is_called then last_value + 1 else last_value end from %I',
                         'account_number_' || replace(t.id::text, '-', '')) into next;
          update tenant set next_account_number = next where id = t.id;
          execute format('drop sequence %I', 'account_number_' || replace(t.id::text, '-', ''));
        end loop;
      end $$;`);
  }
}
