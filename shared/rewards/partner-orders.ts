import { loadPointsPolicy } from '../ledger/points-policy.js';
import type { Knex } from 'knex';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Actor } from '../audit/audit-job.js';
import { auditedChange, ENQUEUE_TIMEOUT_MS, type AuditDependencies } from '../audit/audit-log.js';
import type { Clock } from '../platform/async/clock.js';
import { withTimeout } from '../platform/async/with-timeout.js';
import type { Config } from '../platform/config/config.js';
import type { Logger } from '../platform/logging/logger.js';
import type { RedisConnectionLog } from '../platform/redis/connection-log.js';
import { refund } from '../ledger/spend-and-adjust.js';
import type { Orm } from '../platform/db/orm.js';
import { OutboundPoster } from '../platform/http/outbound-post.js';
import { storableText } from '../platform/json/unstorable-text.js';
import { JobEndWaiter } from '../platform/queues/job-end-waiter.js';
import type { TenantSettings } from '../tenants/tenant-settings.js';
import { signedHeaders } from '../webhooks/signed-headers.js';
import {
  partnerOrderJobId,
  partnerOrderJobOptions,
  type PartnerOrderJob,
  type PartnerOrderQueue,
} from './partner-order-job.js';
import {
  findPurchaseRow,
  isPartnerProduct,
  partnerOf,
  purchaseView,
  PURCHASE_COLUMNS,
  type PurchaseRow,
} from './purchase-service.js';
import type { PurchaseView } from './purchase-resource.js';

/**
 * What a partner-orders job returns: how the order ended, for a POST /purchases waiting on it;
 * null when there is no partner purchase to place (its tenant was deleted since).
 */
export type PartnerOrderOutcome = { status: 'CONFIRMED' | 'REFUNDED' } | null;

/** Thrown when the partner may take the order on a later attempt (5xx, 408, 429, no answer): BullMQ retries. */
class PartnerOrderRetryError extends Error {}

export interface PartnerOrderDependencies extends AuditDependencies {
  orm: Orm;
  poster: OutboundPoster;
}

/** What the partner-orders worker places orders with, from the context. */
export function partnerOrderDependencies(
  context: Omit<PartnerOrderDependencies, 'poster'> & { config: Pick<Config, 'fetchAllowPrivateAddresses'> },
): PartnerOrderDependencies {
  return {
    orm: context.orm,
    poster: new OutboundPoster(context.config.fetchAllowPrivateAddresses),
    queues: context.queues,
    logger: context.logger,
    clock: context.clock,
  };
}

/** Who refunds a purchase its partner refused, in the audit log. */
function partnerActor(partner: string): Actor {
  return { subject: `partner:${partner}`, scopes: [] };
}

/**
 * Lets POST /purchases wait a bounded time for a PARTNER2 order's outcome
 * (docs/rewards.md#partner-products, PARTNER_CONFIRM_WAIT_MS) on the queue's job events.
 */
export class PartnerOrderWaiter extends JobEndWaiter<PartnerOrderOutcome> {}

export function partnerOrderWaiter(context: {
  queues: PartnerOrderQueue;
  config: Pick<Config, 'redisUrl'>;
  redisConnections: RedisConnectionLog;
  logger: Logger;
  clock: Clock;
}): PartnerOrderWaiter {
  return new PartnerOrderWaiter(
    context.queues['partner-orders'],
    context.config.redisUrl,
    context.redisConnections,
    context.logger,
    { events: 'the partner order events', waiters: 'PARTNER2 purchases', outcome: 'confirmation' },
    context.clock,
  );
}

export interface PlacementDependencies {
  orm: Orm;
  queues: PartnerOrderQueue;
  partnerOrders: PartnerOrderWaiter;
  logger: Logger;
  clock: Clock;
  config: Pick<Config, 'partnerConfirmWaitMs' | 'partnerRetryBaseMs'>;
}

/**
 * After a purchase committed: a partner product's order is queued (its job id is the purchase's,
 * so a retried request queues nothing twice). PARTNER1 answers at once; PARTNER2 waits up to
 * PARTNER_CONFIRM_WAIT_MS for the order's job to end, then answers the purchase as it stands:
 * `delayed: true` while it is still PENDING. Should Redis not take the job in time, the purchase
 * stands all the same and the recovery sweep queues it (recover-partner-orders.ts). Any other
 * purchase is answered as it is.
 */
export async function placeAfterPurchase(
  deps: PlacementDependencies,
  tenantId: string,
  purchase: PurchaseView,
): Promise<PurchaseView> {
  if (!('orderId' in purchase) || purchase.status !== 'PENDING') return purchase;
  const queue = async () => {
    try {
      const job = deps.queues['partner-orders'].add(
        'place',
        { tenantId, purchaseId: purchase.id },
        partnerOrderJobOptions(purchase.id, deps.config.partnerRetryBaseMs),
      );
      await withTimeout(job, ENQUEUE_TIMEOUT_MS, deps.clock);
    } catch (error) {
      deps.logger.warn(
        { err: error, purchaseId: purchase.id },
        'the partner-orders queue did not take the order: the recovery sweep will queue it',
      );
    }
  };
  if (purchase.benefit.type === 'PARTNER1_PRODUCT') {
    await queue();
    return purchase;
  }
  // What the job returned is only the signal: the answer is the purchase as PostgreSQL has it now,
  // which also covers a retried request whose job had ended already (it is not heard again).
  await deps.partnerOrders.wait(partnerOrderJobId(purchase.id), queue, deps.config.partnerConfirmWaitMs);
  const row = await findPurchaseRow(deps.orm.em.getKnex(), tenantId, purchase.id);
  return row ? purchaseView(row) : purchase;
}

/**
 * One attempt to place a partner order (docs/rewards.md#partner-products): the order is POSTed to
 * the tenant's endpoint for its partner, signed like a webhook with the partner's secret, its
 * `webhook-id` the order id on every attempt so the partner can drop a repeat. A 2xx confirms the
 * purchase (with the partner's `reference`, if its JSON answer has one); any other 4xx but 408 and
 * 429 is a refusal for good, and the purchase is refunded; anything else is thrown for a retry,
 * and on the last attempt the purchase is refunded too. A purchase no longer PENDING (a job run
 * twice) is answered as it ended, and moves nothing.
 */
export async function placePartnerOrder(
  deps: PartnerOrderDependencies,
  job: PartnerOrderJob,
  isLastAttempt: boolean,
): Promise<PartnerOrderOutcome> {
  const knex = deps.orm.em.getKnex();
  const found = await knex.raw<{
    rows: (PurchaseRow & { partner_product_id: string | null; configuration: TenantSettings })[];
  }>(
    `select p.id, p.user_id, p.reward_id, p.resource_type, p.points, p.voucher_id, p.status, p.partner_reference,
            p.created_at, p.partner_product_id, t.configuration
       from purchase p join tenant t on t.id = p.tenant_id
      where p.tenant_id = ? and p.id = ?`,
    [job.tenantId, job.purchaseId],
  );
  const [purchase] = found.rows;
  if (!purchase || !isPartnerProduct(purchase.resource_type)) return null;
  if (purchase.status !== 'PENDING') return { status: purchase.status === 'CONFIRMED' ? 'CONFIRMED' : 'REFUNDED' };
  const partner = partnerOf(purchase.resource_type);
  const endpoint = purchase.configuration.partners?.[partner];
  if (!endpoint) return refundPurchase(deps, job, partner, `the tenant no longer has a ${partner} endpoint`);

  const timestamp = new Date(deps.clock.now());
  const registeredAt = new Date(purchase.created_at).toISOString();
  const body = JSON.stringify({
    orderId: purchase.id,
    productId: purchase.partner_product_id,
    member: { id: purchase.user_id },
    registeredAt,
  });
  // The secret is the tenant's text, signed with as its UTF-8 bytes (not base64 like `whsec_` keys).
  const signer = new StandardWebhook(Buffer.from(endpoint.secret, 'utf8'), { format: 'raw' });
  let status: number;
  let answer: string;
  try {
    ({ status, body: answer } = await deps.poster.post(
      endpoint.url,
      body,
      signedHeaders(signer, purchase.id, timestamp, body),
    ));
  } catch (error) {
    const reason = `no answer from ${partner}: ${(error as Error).message}`;
    if (isLastAttempt) return refundPurchase(deps, job, partner, reason);
    throw new PartnerOrderRetryError(reason);
  }
  if (status >= 200 && status < 300) return confirmPurchase(knex, job, partnerReference(answer), timestamp);
  const reason = `${partner} answered ${status}: ${storableText(answer.slice(0, 500))}`;
  const refusedForGood = status >= 400 && status < 500 && status !== 408 && status !== 429;
  if (refusedForGood || isLastAttempt) return refundPurchase(deps, job, partner, reason);
  throw new PartnerOrderRetryError(reason);
}

/** The partner's own reference for the order: `reference` of its JSON answer, when it is a short string. */
function partnerReference(answer: string): string | null {
  try {
    const reference = (JSON.parse(answer) as { reference?: unknown } | null)?.reference;
    return typeof reference === 'string' && reference.length > 0 && reference.length <= 256 ? reference : null;
  } catch {
    return null;
  }
}

async function confirmPurchase(
  knex: Knex,
  job: PartnerOrderJob,
  reference: string | null,
  at: Date,
): Promise<PartnerOrderOutcome> {
  const confirmed = await knex.raw<{ rows: { status: string }[] }>(
    `update purchase set status = 'CONFIRMED', partner_reference = ?, settled_at = ?
      where tenant_id = ? and id = ? and status = 'PENDING' returning status`,
    [reference, at, job.tenantId, job.purchaseId],
  );
  if (confirmed.rows.length > 0) return { status: 'CONFIRMED' };
  // Another run of the job settled it first: its outcome stands.
  const row = await findPurchaseRow(knex, job.tenantId, job.purchaseId);
  return { status: row?.status === 'CONFIRMED' ? 'CONFIRMED' : 'REFUNDED' };
}

/**
 * A partner order refused for good, or never placed: in one transaction with its audit entry, the
 * purchase becomes REFUNDED, its points come back (a REVERSAL naming it, made once: the ledger's
 * unique index) and so does its unit of stock. Only a PENDING purchase is refunded, so a job run
 * twice refunds once, and a purchase a concurrent run confirmed stays confirmed.
 */
async function refundPurchase(
  deps: PartnerOrderDependencies,
  job: PartnerOrderJob,
  partner: string,
  reason: string,
): Promise<PartnerOrderOutcome> {
  const now = new Date(deps.clock.now());
  const refunded = await auditedChange(
    deps,
    deps.orm.em.fork(),
    async (tx) => {
      const trx = tx.getTransactionContext<Knex.Transaction>()!;
      const updated = await trx.raw<{ rows: PurchaseRow[] }>(
        `update purchase set status = 'REFUNDED', settled_at = ?, failure_reason = ?
          where tenant_id = ? and id = ? and status = 'PENDING' returning ${PURCHASE_COLUMNS}`,
        [now, storableText(reason), job.tenantId, job.purchaseId],
      );
      const [row] = updated.rows;
      if (!row) return undefined;
      await refund(trx, {
        tenantId: job.tenantId,
        cause: { purchaseId: job.purchaseId },
        at: now,
        policy: await loadPointsPolicy(trx, job.tenantId),
      });
      await trx.raw('update reward set stock = stock + 1 where tenant_id = ? and id = ? and stock is not null', [
        job.tenantId,
        row.reward_id,
      ]);
      return row.id;
    },
    (purchaseId) =>
      purchaseId === undefined
        ? undefined
        : {
            tenantId: job.tenantId,
            actor: partnerActor(partner),
            action: 'purchase.refunded',
            resourceType: 'purchase',
            resourceId: purchaseId,
            before: { status: 'PENDING' },
            after: { status: 'REFUNDED', failureReason: reason },
          },
  );
  if (refunded) return { status: 'REFUNDED' };
  const row = await findPurchaseRow(deps.orm.em.getKnex(), job.tenantId, job.purchaseId);
  return { status: row?.status === 'CONFIRMED' ? 'CONFIRMED' : 'REFUNDED' };
}
