import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { DAY_MS } from '../ledger/calendar.js';
import { RewardUnavailableError, VoucherCodePoolExhaustedError } from '../platform/errors/app-errors.js';
import { generateCode, type VoucherCodes } from './voucher-codes.js';

/** A generated code meeting one already in the tenant is drawn again; at 59 bits a second meeting is out of reach. */
const GENERATION_ATTEMPTS = 5;

/** What a voucher takes from its reward: read by the purchase or the reaction that grants it. */
export interface VoucherTerms {
  id: string;
  hasPool: boolean;
  stock: number | null;
  cost: number;
  voucherValidityDays: number;
}

/** A reward row's columns the terms are read from (`VOUCHER_TERMS_COLUMNS`). */
export interface VoucherTermsRow {
  id: string;
  has_pool: boolean;
  stock: number | null;
  cost: string | number;
  voucher_validity_days: number;
}

export const VOUCHER_TERMS_COLUMNS = 'id, has_pool, stock, cost, voucher_validity_days';

/** The terms a voucher takes from its reward's row: the purchase and the VOUCHER reaction read them alike. */
export function voucherTermsOf(row: VoucherTermsRow): VoucherTerms {
  return {
    id: row.id,
    hasPool: row.has_pool,
    stock: row.stock,
    cost: Number(row.cost),
    voucherValidityDays: row.voucher_validity_days,
  };
}

/** One voucher to give a member: for a purchase, or for an (event, reactor) pair, each giving at most one. */
export interface VoucherGrant {
  tenantId: string;
  userId: string;
  reward: VoucherTerms;
  now: Date;
  cause: { purchaseId: string } | { eventId: number; reactorId: string };
}

/**
 * Gives a member a voucher in the caller's transaction (docs/rewards.md#vouchers): takes one from
 * the reward's stock when it keeps one (422 RewardUnavailableError when none is left), takes a free
 * code from its pool or generates one (409 VoucherCodePoolExhaustedError when the pool is empty),
 * and stores the voucher. Two transactions never take the same code: each takes the first free
 * code no other transaction holds (`FOR UPDATE SKIP LOCKED`), so they never queue behind one
 * another for a pool either. Resolves to the voucher's id.
 */
export async function grantVoucher(trx: Knex.Transaction, codes: VoucherCodes, grant: VoucherGrant): Promise<string> {
  const { tenantId, reward, now, cause } = grant;
  await takeStock(trx, tenantId, reward);
  const voucher = {
    id: randomUUID(),
    tenant_id: tenantId,
    user_id: grant.userId,
    reward_id: reward.id,
    purchase_id: 'purchaseId' in cause ? cause.purchaseId : null,
    event_id: 'eventId' in cause ? cause.eventId : null,
    reactor_id: 'eventId' in cause ? cause.reactorId : null,
    cost: reward.cost,
    created_at: now,
    expires_at: new Date(now.getTime() + reward.voucherValidityDays * DAY_MS),
  };
  if (reward.hasPool) {
    if (!(await storeVoucher(trx, voucher, POOL_CODE, [now, reward.id, tenantId])))
      throw new VoucherCodePoolExhaustedError("The reward's pool of voucher codes is empty");
    return voucher.id;
  }
  for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt++) {
    const id = randomUUID();
    const code = generateCode();
    const bindings = [id, tenantId, reward.id, codes.hash(tenantId, code), codes.seal(tenantId, id, code), now, now];
    if (await storeVoucher(trx, voucher, GENERATED_CODE, bindings)) return voucher.id;
  }
  throw new Error(`${GENERATION_ATTEMPTS} generated voucher codes in a row were taken already`);
}

/** Takes a free code of the pool, one no other transaction holds, without waiting for them. */
const POOL_CODE = `update reward_code set reserved_at = ? where id = (
    select id from reward_code where reward_id = ? and tenant_id = ? and reserved_at is null
    limit 1 for update skip locked
  ) returning id`;
/** Stores a generated code, unless the tenant has that code already. */
const GENERATED_CODE = `insert into reward_code (id, tenant_id, reward_id, code_hash, sealed_code, created_at, reserved_at)
  values (?, ?, ?, ?, ?, ?, ?) on conflict (tenant_id, code_hash) do nothing returning id`;

/**
 * The code (`codeStatement`, which returns its id, or nothing when there is no code to take) and
 * the voucher that holds it, in one statement; false when there was no code.
 */
async function storeVoucher(
  trx: Knex.Transaction,
  voucher: Record<string, unknown>,
  codeStatement: string,
  codeBindings: Knex.Value[],
): Promise<boolean> {
  const stored = await trx.raw<{ rows: unknown[] }>(
    `with code as (${codeStatement})
     insert into voucher (id, tenant_id, user_id, reward_id, code_id, purchase_id, event_id, reactor_id, cost, created_at, expires_at, updated_at)
     select v.id, v.tenant_id, v.user_id, v.reward_id, code.id, v.purchase_id, v.event_id, v.reactor_id, v.cost, v.created_at, v.expires_at, v.created_at
       from code, jsonb_to_record(?::jsonb) as v(id uuid, tenant_id uuid, user_id uuid, reward_id uuid, purchase_id uuid,
                                                event_id bigint, reactor_id uuid, cost numeric, created_at timestamptz, expires_at timestamptz)
     returning id`,
    [...codeBindings, JSON.stringify(voucher)],
  );
  return stored.rows.length > 0;
}

/** Takes one from a reward's stock when it keeps one: 422 RewardUnavailableError when none is left. */
export async function takeStock(
  trx: Knex.Transaction,
  tenantId: string,
  reward: Pick<VoucherTerms, 'id' | 'stock'>,
): Promise<void> {
  if (reward.stock === null) return;
  const taken = await trx.raw<{ rowCount: number }>(
    'update reward set stock = stock - 1 where id = ? and tenant_id = ? and stock > 0',
    [reward.id, tenantId],
  );
  if (taken.rowCount === 0) throw new RewardUnavailableError('The reward is out of stock');
}
