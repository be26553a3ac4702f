import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { Type, type Static } from 'typebox';
import type { AuditDependencies } from '../audit/audit-log.js';
import { auditedResourceChange, type ChangedBy } from '../audit/audited-resource-change.js';
import type { EntityManager } from '../platform/db/orm.js';
import { BadRequestError } from '../platform/errors/app-errors.js';
import { findReward } from './reward-service.js';
import type { VoucherCodes } from './voucher-codes.js';

/** docs/rewards.md#codes: one upload holds at most this many codes, each at most this long. */
export const MAX_POOL_CODES_PER_REQUEST = 10_000;
export const MAX_POOL_CODE_LENGTH = 128;

export interface CodePoolDependencies extends AuditDependencies {
  voucherCodes: VoucherCodes;
}

export interface CodesAdded {
  added: number;
  duplicates: number;
}

/**
 * Adds codes to a VOUCHER reward's pool (docs/rewards.md#codes) in one transaction with its audit
 * entry (`reward.codes_added`, the counts only: the entry must not hand out what the pool keeps
 * sealed). Each code is stored as its keyed hash (of its printed form, voucher-codes.ts) and
 * sealed as given, never in the clear. A code already in any of the tenant's pools, or given twice
 * in the request, in any case and with any dashes or spaces (or, for one kept from before, exactly
 * as it was given then), is a duplicate and left out: the
 * unique (tenant, hash) index decides, in the one insert of the whole batch, so two uploads racing
 * with the same code add it once. The reward takes its codes from the pool from then on.
 */
export async function addPoolCodes(
  deps: CodePoolDependencies,
  em: EntityManager,
  by: ChangedBy,
  rewardId: string,
  codes: string[],
  now: Date,
): Promise<CodesAdded> {
  return auditedResourceChange(deps, em, by, { resourceType: 'reward' }, async (tx) => {
    const reward = await findReward(tx, by.tenantId, rewardId);
    if (reward.type !== 'VOUCHER')
      throw new BadRequestError(`Only a VOUCHER reward takes codes; this one is ${reward.type}`);
    // Codes that differ only in case, dashes or spaces are one code: the first given is kept, as given.
    const byKey = new Map<string, { code: string; exact: string }>();
    for (const code of codes) {
      const [printed, exact] = deps.voucherCodes.lookupKeys(by.tenantId, code);
      if (!byKey.has(printed)) byKey.set(printed, { code, exact });
    }
    const trx = tx.getTransactionContext<Knex.Transaction>()!;
    // A code uploaded before codes were matched in their printed form is kept under the key of the
    // code exactly as given, which a till's code is still looked up by: given so again, it is that code.
    const keptExactly = new Set(
      (
        await trx.raw<{ rows: { code_hash: string }[] }>(
          'select code_hash from reward_code where tenant_id = ? and code_hash = any(?)',
          [by.tenantId, [...byKey].filter(([printed, { exact }]) => exact !== printed).map(([, { exact }]) => exact)],
        )
      ).rows.map((row) => row.code_hash),
    );
    const rows = [...byKey]
      .filter(([, { exact }]) => !keptExactly.has(exact))
      .map(([key, { code }]) => {
        const id = randomUUID();
        return { id, code_hash: key, sealed_code: deps.voucherCodes.seal(by.tenantId, id, code) };
      });
    const inserted = await trx.raw<{ rowCount: number }>(
      `insert into reward_code (id, tenant_id, reward_id, code_hash, sealed_code, created_at)
       select row.id, ?, ?, row.code_hash, row.sealed_code, ?
         from jsonb_to_recordset(?::jsonb) as row(id uuid, code_hash text, sealed_code text)
       on conflict (tenant_id, code_hash) do nothing`,
      [by.tenantId, reward.id, now, JSON.stringify(rows)],
    );
    await trx.raw('update reward set has_pool = true where id = ? and tenant_id = ? and not has_pool', [
      reward.id,
      by.tenantId,
    ]);
    const counts = { added: inserted.rowCount, duplicates: codes.length - inserted.rowCount };
    return { result: counts, resourceId: reward.id, before: null, after: counts, action: 'reward.codes_added' };
  });
}

/** A reward's codes counted, as GET /v1/rewards/{id}/codes/summary answers them. */
export const CodeSummary = Type.Object(
  {
    total: Type.Integer({ description: "every code of the reward's: uploaded, and generated for its vouchers" }),
    reserved: Type.Integer({ description: 'taken by a voucher' }),
    available: Type.Integer({ description: 'free in the pool' }),
  },
  { title: 'CodeSummary' },
);
export type CodeSummary = Static<typeof CodeSummary>;

/** The counts of one reward's codes (tenant, reward), read from reward_code's (reward_id, tenant_id, reserved_at) index alone. */
export const CODE_SUMMARY_SQL = `select count(*)::int as total, count(reserved_at)::int as reserved
  from reward_code where tenant_id = ? and reward_id = ?`;

/** A reward's codes counted (docs/rewards.md#codes): all of them, those vouchers took, those still free. */
export async function codeSummary(em: EntityManager, tenantId: string, rewardId: string): Promise<CodeSummary> {
  const reward = await findReward(em, tenantId, rewardId);
  const [counts] = await em
    .getConnection()
    .execute<{ total: number; reserved: number }[]>(CODE_SUMMARY_SQL, [tenantId, reward.id]);
  const { total, reserved } = counts!;
  return { total, reserved, available: total - reserved };
}
