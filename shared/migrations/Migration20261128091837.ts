import { Migration } from '@mikro-orm/migrations';
import { hashedSourceUser } from '../referrals/source-user-hash.js';
import { keyWhenNeeded, rewriteColumn, type KeyedMigration } from './migration-secrets.js';

const TABLES = ['referral_activity', 'referral'] as const;

/**
 * Referrals and clicks keep a keyed hash of `sourceUserId` (often an email address) instead of the
 * value (docs/referrals.md#who-is-kept): each stored value is hashed as new ones are, the value
 * dropped, and the once-per-code unique index moved onto the hash.
 */
export const Migration20261128091837: KeyedMigration = (secrets) =>
  class extends Migration {
    override async up(): Promise<void> {
      const key = keyWhenNeeded(secrets, 'Migration20261128091837', 'referral-source-user');
      for (const table of TABLES) {
        await this.execute(`alter table "${table}" add column "source_user_hash" varchar(64) null;`);
        await rewriteColumn<{ id: string; tenant_id: string; source_user_id: string }>(this, {
          table,
          column: 'source_user_hash',
          columns: ['tenant_id', 'source_user_id'],
          pending: `"source_user_hash" is null`,
          value: (row) => hashedSourceUser(key(), row.tenant_id, row.source_user_id),
        });
        await this.execute(`alter table "${table}" alter column "source_user_hash" set not null;`);
      }
      this.addSql(`alter table "referral" drop constraint "referral_code_id_source_source_user_id_unique";`);
      this.addSql(
        `alter table "referral" add constraint "referral_code_id_source_source_user_hash_unique" unique ("code_id", "source", "source_user_hash");`,
      );
      for (const table of TABLES) this.addSql(`alter table "${table}" drop column "source_user_id";`);
    }

    /**
     * The values cannot come back: `source_user_id` is given their hashes, so that the column and its
     * unique index are whole again, and no more. The code before this stores and compares the values
     * as sent, which never equal a hash: a `source` and `sourceUserId` that signed up with a code
     * before the rollback can sign up with it once more.
     */
    override async down(): Promise<void> {
      for (const table of TABLES) {
        this.addSql(`alter table "${table}" add column "source_user_id" varchar(256) null;`);
        this.addSql(`update "${table}" set "source_user_id" = "source_user_hash";`);
        this.addSql(`alter table "${table}" alter column "source_user_id" set not null;`);
      }
      this.addSql(`alter table "referral" drop constraint "referral_code_id_source_source_user_hash_unique";`);
      this.addSql(
        `alter table "referral" add constraint "referral_code_id_source_source_user_id_unique" unique ("code_id", "source", "source_user_id");`,
      );
      for (const table of TABLES) this.addSql(`alter table "${table}" drop column "source_user_hash";`);
    }
  };
