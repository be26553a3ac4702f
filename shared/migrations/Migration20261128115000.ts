import { Migration } from '@mikro-orm/migrations';
import { RECEIPT_REVIEWED } from '../kernel/system-event-names.js';
import { SYSTEM_EVENT_TYPES } from '../event-types/system-event-types.js';

/** The properties RECEIPT_REVIEWED's payload gained after tenants were created with its schema. */
const ADDED = ['currency', 'correctedTotal'];

/**
 * Gives every tenant's system RECEIPT_REVIEWED the properties its payload gained since the tenant
 * was created (`currency`, then `correctedTotal`): a tenant's copy of a system type's schema is
 * made when the tenant is, so those created before kept the old one. A property the tenant's copy
 * already has (given by a later creation, or changed by its admin) stays as it is.
 */
export class Migration20261128115000 extends Migration {
  override async up(): Promise<void> {
    const { properties } = SYSTEM_EVENT_TYPES.find(({ name }) => name === RECEIPT_REVIEWED)!.schema as {
      properties: Record<string, unknown>;
    };
    const added = Object.fromEntries(ADDED.map((name) => [name, properties[name]]));
    const lacksOne = ADDED.map((name) => `"schema"->'properties'->'${name}' is null`).join(' or ');
    this.addSql(
      this.getKnex().raw(
        // Of two objects joined with ||, the right one's keys win: the copy's own properties stay.
        `update "event_type" set "schema" = jsonb_set("schema", '{properties}', ?::jsonb || ("schema"->'properties')), "updated_at" = now()
         where "is_system" and "name" = ? and jsonb_typeof("schema"->'properties') = 'object' and (${lacksOne})`,
        [JSON.stringify(added), RECEIPT_REVIEWED],
      ),
    );
  }

  /** Nothing to undo: the code before it reports both properties too, so the schemas say what its payloads hold. */
  override async down(): Promise<void> {}
}
