import type { EntityManager } from '../platform/db/orm.js';
import { Wallet } from './wallet.entity.js';

/**
 * The points part of a member's wallet (docs/users.md#wallet): the running totals kept with
 * the ledger. The vouchers and loyalty cost are read beside it (shared/rewards/wallet-vouchers.ts).
 */
export async function readPoints(
  em: EntityManager,
  tenantId: string,
  userId: string,
): Promise<{ points: number; lifetimeEarn: number }> {
  const wallet = await em.findOne(Wallet, { tenant: tenantId, user: userId });
  return { points: wallet?.points ?? 0, lifetimeEarn: wallet?.lifetimeEarn ?? 0 };
}
