import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { RewardUnavailableError, VoucherCodePoolExhaustedError } from '../platform/errors/app-errors.js';
import { generateCode, type VoucherCodes } from './voucher-codes.js';

const DAY_MS = 86_400_000;
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
  const { tenantId, reward, now } = grant;
  await takeStock(trx, tenantId, reward);
  const codeId = reward.hasPool
    ? await reservePoolCode(trx, tenantId, reward.id, now)
    : await generatedCode(trx, codes, tenantId, reward.id, now);
  const voucherId = randomUUID();
  const cause = grant.cause;
  await trx.raw(
    `insert into voucher (id, tenant_id, user_id, reward_id, code_id, purchase_id, event_id, reactor_id, cost, created_at, expires_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      voucherId,
      tenantId,
      grant.userId,
      reward.id,
      codeId,
      'purchaseId' in cause ? cause.purchaseId : null,
      'eventId' in cause ? cause.eventId : null,
      'eventId' in cause ? cause.reactorId : null,
      reward.cost,
      now,
      new Date(now.getTime() + reward.voucherValidityDays * DAY_MS),
      now,
    ],
  );
  return voucherId;
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

async function reservePoolCode(trx: Knex.Transaction, tenantId: string, rewardId: string, now: Date): Promise<string> {
  const reserved = await trx.raw<{ rows: { id: string }[] }>(
    `update reward_code set reserved_at = ? where id = (
       select id from reward_code where reward_id = ? and tenant_id = ? and reserved_at is null
       limit 1 for update skip locked
     ) returning id`,
    [now, rewardId, tenantId],
  );
  const [code] = reserved.rows;
  if (!code) throw new VoucherCodePoolExhaustedError("The reward's pool of voucher codes is empty");
  return code.id;
}

async function generatedCode(
  trx: Knex.Transaction,
  codes: VoucherCodes,
  tenantId: string,
  rewardId: string,
  now: Date,
): Promise<string> {
  for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt++) {
    const id = randomUUID();
    const code = generateCode();
    const inserted = await trx.raw<{ rows: { id: string }[] }>(
      `insert into reward_code (id, tenant_id, reward_id, code_hash, sealed_code, created_at, reserved_at)
       values (?, ?, ?, ?, ?, ?, ?) on conflict (tenant_id, code_hash) do nothing returning id`,
      [id, tenantId, rewardId, codes.hash(tenantId, code), codes.seal(tenantId, id, code), now, now],
    );
    if (inserted.rows.length > 0) return id;
  }
  throw new Error(`${GENERATION_ATTEMPTS} generated voucher codes in a row were taken already`);
}
