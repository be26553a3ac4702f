import { Migration } from '@mikro-orm/migrations';
import { REFERRAL_COMPLETED, REFERRED_REGISTRATION } from '../kernel/system-event-names.js';
import { SYSTEM_EVENT_TYPES } from '../event-types/system-event-types.js';

/**
 * Gives every existing tenant the referral system types a new tenant is created with. A tenant
 * that already has a type of that name keeps its own: its reactors may rely on it, and the
 * platform's reports of that name go to it.
 */
export class Migration20261128041500 extends Migration {
  override async up(): Promise<void> {
    for (const type of SYSTEM_EVENT_TYPES.filter(({ name }) => [REFERRAL_COMPLETED, REFERRED_REGISTRATION].includes(name))) {
      this.addSql(
        this.getKnex().raw(
          `insert into "event_type" ("id", "tenant_id", "name", "description", "is_private", "schema", "omit_from_user_activity", "is_active", "secret_hash", "is_system", "created_at", "updated_at")
         select gen_random_uuid(), t."id", ?, ?, true, ?::jsonb, false, true, null, true, now(), now() from "tenant" t
         where not exists (select 1 from "event_type" e where e."tenant_id" = t."id" and e."name" = ?)`,
          [type.name, type.description, JSON.stringify(type.schema), type.name],
        ),
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql(
      this.getKnex().raw(`delete from "event_type" where "is_system" and "name" in (?, ?)`, [
        REFERRAL_COMPLETED,
        REFERRED_REGISTRATION,
      ]),
    );
  }
}
