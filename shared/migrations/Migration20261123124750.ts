import { Migration } from '@mikro-orm/migrations';

export class Migration20261123124750 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "receipt" ("id" uuid not null, "tenant_id" uuid not null, "submitter_id" uuid not null, "status" text check ("status" in ('PENDING', 'AUTHORIZED', 'REJECTED')) not null, "status_version" int not null default 0, "use_parser" boolean not null, "parsed_at" timestamptz null, "parse_error" text null, "picture_url" text null, "image_hash" varchar(255) null, "ocr_confidence" numeric(5,4) null, "field_confidences" jsonb not null, "timezone" varchar(255) not null, "service_date" varchar(255) null, "service_time" varchar(255) null, "served_at" timestamptz null, "total" numeric(14,4) null, "subtotal" numeric(14,4) null, "corrected_total" numeric(14,4) null, "barcode" varchar(255) null, "transaction_id" varchar(255) null, "line_items" jsonb not null, "location_identifier" varchar(255) null, "location_address" text null, "submission_position" jsonb null, "format_slug" varchar(255) null, "merchant_name" varchar(255) null, "language" varchar(255) null, "metadata" jsonb null, "paramount_review_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "receipt_pkey" primary key ("id"));`);
    this.addSql(`create index "receipt_tenant_id_created_at_index" on "receipt" ("tenant_id", "created_at");`);
    this.addSql(`create index "receipt_tenant_id_submitter_id_created_at_index" on "receipt" ("tenant_id", "submitter_id", "created_at");`);
    this.addSql(`create index "receipt_tenant_id_image_hash_index" on "receipt" ("tenant_id", "image_hash");`);
    this.addSql(`create index "receipt_tenant_id_service_date_total_index" on "receipt" ("tenant_id", "service_date", "total");`);

    this.addSql(`create table "receipt_review" ("id" uuid not null, "tenant_id" uuid not null, "receipt_id" uuid not null, "verdict" text check ("verdict" in ('ABSTAIN', 'REJECT', 'AUTHORIZE')) not null, "reason" text check ("reason" in ('OTHER', 'VERIFIED', 'VALID_DATA', 'FLAGGED_FOR_SPOT_CHECK', 'DUPLICATE', 'INVALID_MERCHANT', 'INVALID_DATE', 'INSUFFICIENT_DATA', 'SUSPICIOUS', 'SUSPICIOUS_CONTEXT', 'RULE_ENGINE_THREW_ERROR', 'INVALID_VENUE', 'FORMAT_SUBMISSION_LIMIT_EXCEEDED', 'MERCHANT_SUBMISSION_LIMIT_EXCEEDED', 'NO_QUALIFYING_PRODUCTS', 'INVALID_MULTIPAGE_CLAIM', 'TEST')) not null, "is_automated" boolean not null, "reviewer" jsonb null, "comment" text null, "checks" jsonb not null, "rule_set_id" uuid null, "rule_engine_result" jsonb null, "event_id" bigint null, "status_version" int null, "created_at" timestamptz not null, constraint "receipt_review_pkey" primary key ("id"));`);
    this.addSql(`create index "receipt_review_receipt_id_created_at_index" on "receipt_review" ("receipt_id", "created_at");`);
    this.addSql(`create unique index "receipt_review_automated_unique" on "receipt_review" ("receipt_id") where "is_automated";`);

    this.addSql(`alter table "receipt" add constraint "receipt_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "receipt" add constraint "receipt_submitter_id_foreign" foreign key ("submitter_id") references "member" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "receipt_review" add constraint "receipt_review_tenant_id_foreign" foreign key ("tenant_id") references "tenant" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "receipt_review" add constraint "receipt_review_receipt_id_foreign" foreign key ("receipt_id") references "receipt" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "receipt_review" drop constraint "receipt_review_receipt_id_foreign";`);

    this.addSql(`drop table if exists "receipt" cascade;`);

    this.addSql(`drop table if exists "receipt_review" cascade;`);
  }

}
