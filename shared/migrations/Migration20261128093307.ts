import { Migration } from '@mikro-orm/migrations';

/**
 * GET /v1/rewards/{id}/codes/summary counted a reward's codes by reading every code of the tenant
 * (no index led with reward_id but the partial one of free codes); this one answers it from the
 * index alone, and serves the reward's foreign key too.
 */
export class Migration20261128093307 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "reward_code_reward_id_tenant_id_reserved_at_index" on "reward_code" ("reward_id", "tenant_id", "reserved_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "reward_code_reward_id_tenant_id_reserved_at_index";`);
  }

}
