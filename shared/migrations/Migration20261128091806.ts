import { Migration } from '@mikro-orm/migrations';
import { memberFingerprint } from '../users/member-fingerprint.js';
import { keyWhenNeeded, rewriteColumn, type KeyedMigration } from './migration-secrets.js';

/**
 * Members' fingerprints (decisions §14): the column, and a fingerprint for every member registered
 * before it that is not erased, as registration now gives one. An erased member has none.
 */
export const Migration20261128091806: KeyedMigration = (secrets) =>
  class extends Migration {
    override async up(): Promise<void> {
      await this.execute(`alter table "member" add column "fingerprint" varchar(32) null;`);
      const key = keyWhenNeeded(secrets, 'Migration20261128091806', 'member-fingerprint');
      await rewriteColumn<{ id: string; tenant_id: string }>(this, {
        table: 'member',
        column: 'fingerprint',
        columns: ['tenant_id'],
        pending: `"fingerprint" is null and "erased_at" is null`,
        value: (member) => memberFingerprint(key(), member.tenant_id, member.id),
      });
    }

    override async down(): Promise<void> {
      this.addSql(`alter table "member" drop column "fingerprint";`);
    }
  };
