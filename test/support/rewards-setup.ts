import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { randomUUID } from 'node:crypto';
import { actorOf } from '../../shared/audit/audit-log.js';
import { adjust } from '../../shared/ledger/spend-and-adjust.js';
import { purchase } from '../../shared/rewards/purchase-service.js';
import { createReward, type RewardInput } from '../../shared/rewards/reward-service.js';
import type { Harness, TestTenant } from './harness.js';

/** The service's own time, which a test moves (manual-clock.ts): vouchers are obtained at it. */
const nowOf = (harness: Harness) => new Date(harness.context.clock.now());

/**
 * A VOUCHER reward made through the reward service, as an admin would; `fields` override a free
 * coffee. With `pool`, those codes are its pool, stored as the upload stores them.
 */
export async function rewardFor(
  harness: Harness,
  tenant: TestTenant,
  fields: Partial<RewardInput> = {},
  pool?: string[],
): Promise<string> {
  const reward = await createReward(
    harness.context,
    harness.context.orm.em.fork(),
    { tenantId: tenant.id, actor: { subject: 'test-admin', scopes: ['admin:rewards'] } },
    { type: 'VOUCHER', name: 'Free coffee', price: 100, cost: 2.5, ...fields },
    nowOf(harness),
  );
  if (pool) {
    for (const code of pool) await poolCodeFor(harness, tenant, reward.id, code);
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute('update reward set has_pool = true where id = ?', [reward.id]);
  }
  return reward.id;
}

/**
 * A voucher of `rewardId` in the member's wallet, bought as a member would: the member is first
 * given the reward's price by an adjustment, then buys it. Resolves to the voucher's id.
 */
export async function voucherFor(
  harness: Harness,
  tenant: TestTenant,
  userId: string,
  rewardId: string,
): Promise<string> {
  const { price } = await harness.context.orm.em
    .fork()
    .getConnection()
    .execute<{ price: string }[]>('select price from reward where tenant_id = ? and id = ?', [tenant.id, rewardId])
    .then(([row]) => row!);
  if (Number(price) > 0) await givePoints(harness, tenant, userId, Number(price));
  const bought = await purchase(
    { ...harness.context, codes: harness.context.voucherCodes },
    harness.context.orm.em.fork(),
    {
      id: randomUUID(),
      tenantId: tenant.id,
      userId,
      actor: actorOf(undefined),
      resource: { type: 'REWARD', id: rewardId },
      policy: pointsPolicyOf({}),
    },
    nowOf(harness),
  );
  return bought.benefit.id;
}

/** Points for a member, as an adjustment through the ledger (the only writer of balances). */
export async function givePoints(harness: Harness, tenant: TestTenant, userId: string, points: number): Promise<void> {
  await harness.context.orm.em
    .fork()
    .getKnex()
    .transaction((trx) =>
      adjust(trx, {
        entryId: randomUUID(),
        tenantId: tenant.id,
        userId,
        points,
        cause: { reason: 'test', actor: 'test' },
        at: new Date(),
      }),
    );
}

/** A voucher's code in the clear, as the member would show it at the till. */
export async function codeOf(harness: Harness, voucherId: string): Promise<string> {
  const [row] = await harness.context.orm.em
    .fork()
    .getConnection()
    .execute<{ id: string; tenant_id: string; sealed_code: string }[]>(
      'select c.id, c.tenant_id, c.sealed_code from voucher v join reward_code c on c.id = v.code_id where v.id = ?',
      [voucherId],
    );
  const code = row && harness.context.voucherCodes.open(row.tenant_id, row.id, row.sealed_code);
  if (!code) throw new Error(`no readable code for voucher ${voucherId}`);
  return code;
}

/**
 * A code in the reward's pool that no voucher has taken yet, stored as the upload stores it (hashed
 * and sealed): under its printed form's key, or, `exact`, under the key of the code as given, as
 * uploads stored codes before codes were matched in their printed form.
 */
export async function poolCodeFor(
  harness: Harness,
  tenant: TestTenant,
  rewardId: string,
  code: string,
  key: 'printed' | 'exact' = 'printed',
): Promise<void> {
  const id = randomUUID();
  const codes = harness.context.voucherCodes;
  const [printed, exact] = codes.lookupKeys(tenant.id, code);
  await harness.context.orm.em
    .fork()
    .getConnection()
    .execute(
      `insert into reward_code (id, tenant_id, reward_id, code_hash, sealed_code, created_at) values (?, ?, ?, ?, ?, now())`,
      [id, tenant.id, rewardId, key === 'printed' ? printed : exact, codes.seal(tenant.id, id, code)],
    );
}
