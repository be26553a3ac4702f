import { randomUUID } from 'node:crypto';
import { adjust } from '../../shared/ledger/spend-and-adjust.js';
import { createReward, type RewardInput } from '../../shared/rewards/reward-service.js';
import type { Harness, TestTenant } from './harness.js';

/**
 * A VOUCHER reward made by the reward service (price 100 unless told), with `pool` as its pool of
 * codes when one is given: the purchase tests' catalogue, without the catalogue's routes.
 */
export async function rewardFor(
  harness: Harness,
  tenant: TestTenant,
  input: Partial<RewardInput> = {},
  pool?: string[],
): Promise<string> {
  const reward = await createReward(
    harness.context,
    harness.context.orm.em.fork(),
    { tenantId: tenant.id, actor: null },
    { type: 'VOUCHER', name: 'Free coffee', price: 100, ...input },
    new Date(harness.context.clock.now()),
  );
  if (pool) {
    const knex = harness.context.orm.em.fork().getKnex();
    const codes = harness.context.voucherCodes;
    for (const code of pool) {
      const id = randomUUID();
      await knex.raw(
        'insert into reward_code (id, tenant_id, reward_id, code_hash, sealed_code, created_at) values (?, ?, ?, ?, ?, now())',
        [id, tenant.id, reward.id, codes.hash(tenant.id, code), codes.seal(tenant.id, id, code)],
      );
    }
    await knex.raw('update reward set has_pool = true where id = ?', [reward.id]);
  }
  return reward.id;
}

/** Gives a member points through the ledger, as an admin's adjustment would. */
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
      }),
    );
}
