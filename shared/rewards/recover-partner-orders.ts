import type { Orm } from '../platform/db/orm.js';
import { retryIfFailed, type SweepWindow } from '../platform/queues/stranded-work.js';
import { partnerOrderJobId, partnerOrderJobOptions, type PartnerOrderQueue } from './partner-order-job.js';

/**
 * Partner orders a crash between the purchase's commit and its queueing left unqueued (or whose
 * job failed for good before it could settle the purchase), queued again: a PENDING purchase is
 * the order's outbox (docs/rewards.md#partner-products). The job id is the purchase's, so an order
 * whose job is still waiting or retrying adds nothing.
 */
export async function recoverStrandedPartnerOrders(
  deps: { orm: Orm; queues: PartnerOrderQueue; partnerRetryBaseMs?: number | undefined },
  window: SweepWindow,
) {
  const pending = await deps.orm.em
    .getKnex()
    .raw<{ rows: { id: string; tenant_id: string }[] }>(
      `select id, tenant_id from purchase where status = 'PENDING' and created_at < ? order by created_at limit ?`,
      [window.before, window.limit],
    );
  const queue = deps.queues['partner-orders'];
  for (const purchase of pending.rows) {
    await retryIfFailed(queue, partnerOrderJobId(purchase.id));
    await queue.add(
      'place',
      { tenantId: purchase.tenant_id, purchaseId: purchase.id },
      partnerOrderJobOptions(purchase.id, deps.partnerRetryBaseMs),
    );
  }
  return { partnerOrders: pending.rows.length };
}
