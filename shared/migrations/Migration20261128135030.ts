import { Migration } from '@mikro-orm/migrations';
import { RECEIPT_REVIEWED } from '../kernel/system-event-names.js';
import { SYSTEM_EVENT_TYPES } from '../event-types/system-event-types.js';

/**
 * The merchant's legal name kept on the receipt (issue 32), and RECEIPT_REVIEWED's payload, which
 * carries it beside `merchantName`, saying so in the copies of its schema that tenants created
 * before it keep (docs/events.md#system-event-types). A copy that already has the property (changed
 * by its admin) keeps its own.
 */
export class Migration20261128135030 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "receipt" add column "merchant_legal_name" varchar(255) null;`);
    const { properties } = SYSTEM_EVENT_TYPES.find(({ name }) => name === RECEIPT_REVIEWED)!.schema as {
      properties: Record<string, unknown>;
    };
    this.addSql(
      this.getKnex().raw(
        `update "event_type" set "schema" = jsonb_set("schema", '{properties,merchantLegalName}', ?::jsonb), "updated_at" = now()
         where "is_system" and "name" = ? and jsonb_typeof("schema"->'properties') = 'object'
           and "schema"->'properties'->'merchantLegalName' is null`,
        [JSON.stringify(properties.merchantLegalName), RECEIPT_REVIEWED],
      ),
    );
  }

  /** The schemas keep the property: it is optional, so they still say what the payloads hold. */
  override async down(): Promise<void> {
    this.addSql(`alter table "receipt" drop column "merchant_legal_name";`);
  }
}
