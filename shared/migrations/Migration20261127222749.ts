import { Migration } from '@mikro-orm/migrations';

export class Migration20261127222749 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "job" ("id" uuid not null, "tenant_id" uuid not null, "kind" text check ("kind" in ('POINTS_ADJUSTMENT')) not null, "status" text check ("status" in ('queued', 'running', 'completed', 'failed')) not null, "total" int not null, "done" int not null, "failed" int not null, "input" jsonb not null, "cursor" int not null, "runs" int not null default 0, "actor" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "finished_at" timestamptz null, constraint "job_pkey" primary key ("id"));`);
    this.addSql(`create index "job_tenant_id_created_at_index" on "job" ("tenant_id", "created_at");`);
    this.addSql(`create index "job_unfinished_index" on "job" ("updated_at") where "status" in ('queued', 'running');`);

    this.addSql(`create table "job_error" ("job_id" uuid not null, "line" int not null, "message" text not null, constraint "job_error_pkey" primary key ("job_id", "line"));`);

    this.addSql(`alter table "job" add constraint "job_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "job_error" add constraint "job_error_job_id_foreign" foreign key ("job_id") references "job" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "job_error" cascade;`);

    this.addSql(`drop table if exists "job" cascade;`);
  }

}
