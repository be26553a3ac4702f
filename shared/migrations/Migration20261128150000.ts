import { Migration } from '@mikro-orm/migrations';
import { VoucherCodes } from '../rewards/voucher-codes.js';
import type { KeyedMigration } from './migration-secrets.js';

const NAME = 'Migration20261128150000';
/** Codes read per statement, as rewriteColumn reads them. */
const BATCH_SIZE = 1000;

interface StoredCode {
  id: string;
  tenant_id: string;
  code_hash: string;
  sealed_code: string;
}

/**
 * Voucher codes uploaded before codes were matched in their printed form (docs/rewards.md#codes)
 * are keyed anew by it: each sealed code is opened and its printed form's key stored. Under their
 * old key, the code given again in another case or with other dashes was added as a second code,
 * which a till's code then found before the old one. A code whose printed form's key another code
 * of the tenant already holds keeps its old key, found as before by the code exactly as given; so
 * does one sealed under another secret.
 */
export const Migration20261128150000: KeyedMigration = (secrets) =>
  class extends Migration {
    override async up(): Promise<void> {
      let codes: VoucherCodes | undefined;
      let last = '00000000-0000-0000-0000-000000000000';
      for (;;) {
        const rows = (await this.execute(
          `select id, tenant_id, code_hash, sealed_code from reward_code where id > ? order by id limit ${BATCH_SIZE}`,
          [last],
        )) as StoredCode[];
        if (rows.length === 0) return;
        if (!secrets.platformSecret)
          throw new Error(
            `${NAME} rewrites stored values under a key derived from PLATFORM_TOKEN_SECRET: migrate with it set (npm start, tally migrate)`,
          );
        codes ??= new VoucherCodes(secrets.platformSecret);
        for (const row of rows) {
          const code = codes.open(row.tenant_id, row.id, row.sealed_code);
          const printed = code === undefined ? row.code_hash : codes.hash(row.tenant_id, code);
          if (printed === row.code_hash) continue;
          await this.execute(
            `update reward_code set code_hash = ? where id = ?
               and not exists (select 1 from reward_code other where other.tenant_id = ? and other.code_hash = ?)`,
            [printed, row.id, row.tenant_id, printed],
          );
        }
        last = rows.at(-1)!.id;
      }
    }

    /** The old keys cannot come back, and need not: the code before this finds a code by its printed form's key first. */
    override async down(): Promise<void> {}
  };
