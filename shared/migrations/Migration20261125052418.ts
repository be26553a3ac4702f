import { Migration } from '@mikro-orm/migrations';

export class Migration20261125052418 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "audit_outbox" ("id" uuid not null, "tenant_id" uuid not null, "job" jsonb not null, "created_at" timestamptz not null, constraint "audit_outbox_pkey" primary key ("id"));`);
    this.addSql(`create index "audit_outbox_created_at_index" on "audit_outbox" ("created_at");`);

    this.addSql(`alter table "audit_outbox" add constraint "audit_outbox_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "audit_outbox" cascade;`);
  }

}
