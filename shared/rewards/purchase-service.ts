import type { PointsPolicy } from '../ledger/points-policy.js';
import type { Knex } from 'knex';
import type { Actor } from '../audit/audit-job.js';
import { auditedChange, type AuditDependencies } from '../audit/audit-log.js';
import { spend } from '../ledger/spend-and-adjust.js';
import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import {
  NotFoundError,
  RewardNotPurchasableError,
  RewardUnavailableError,
  ValidationError,
} from '../platform/errors/app-errors.js';
import type { Partner } from '../tenants/tenant-settings.js';
import { grantVoucher, takeStock, voucherTermsOf } from './grant-voucher.js';
import type { Purchase, PurchaseResourceType, PurchaseStatus } from './purchase.entity.js';
import { PARTNER_PRODUCT_TYPES, type PurchaseListView, type PurchaseView } from './purchase-resource.js';
import type { VoucherCodes } from './voucher-codes.js';

export interface PurchaseDependencies extends AuditDependencies {
  codes: VoucherCodes;
}

export interface PurchaseRequest {
  /** The purchase's id: the one reserved with an Idempotency-Key, so a retry finds the purchase the first try made. */
  id: string;
  tenantId: string;
  userId: string;
  /** Who asked: the member's token, or the admin buying on its behalf. */
  actor: Actor;
  resource: { type: PurchaseResourceType; id: string };
  /** The tenant's points policy: a purchase is a spend, under its spend cap (docs/points.md#caps). */
  policy: PointsPolicy;
}

export type PartnerProductType = (typeof PARTNER_PRODUCT_TYPES)[number];

export interface PurchaseRow {
  id: string;
  user_id: string;
  reward_id: string;
  resource_type: PurchaseResourceType;
  points: string;
  voucher_id: string | null;
  status: PurchaseStatus;
  partner_reference: string | null;
  created_at: Date | string;
}

export const PURCHASE_COLUMNS =
  'id, user_id, reward_id, resource_type, points, voucher_id, status, partner_reference, created_at';

/** The partner a partner product is ordered from. */
export function partnerOf(type: PartnerProductType): Partner {
  return type === 'PARTNER1_PRODUCT' ? 'PARTNER1' : 'PARTNER2';
}

export function isPartnerProduct(type: string): type is PartnerProductType {
  return (PARTNER_PRODUCT_TYPES as readonly string[]).includes(type);
}

interface RewardRow {
  id: string;
  type: string;
  price: string;
  cost: string;
  purchasable: boolean;
  available_from: Date | string | null;
  available_until: Date | string | null;
  stock: number | null;
  has_pool: boolean;
  voucher_validity_days: number;
  partner_product_id: string | null;
}

/**
 * Buys a reward with points (docs/rewards.md#purchases), all in one PostgreSQL transaction with
 * its audit entry: the reward is checked (422 RewardNotPurchasableError, 422
 * RewardUnavailableError outside its window or out of stock), the price is spent through the
 * ledger (a SPEND naming the purchase; 422 InsufficientPointsError), the voucher is granted with a
 * code (409 VoucherCodePoolExhaustedError), and the purchase row is written under its id with what
 * it bought. A partner product takes stock instead and its purchase waits,
 * PENDING, for the partner-orders worker to place it (docs/rewards.md#partner-products): the row
 * itself is what the recovery sweep queues again should this process die before queueing it. Any
 * refusal rolls all of it back: no point moves without its voucher or its order. Asked again with
 * the same id, it answers the purchase the first call made and charges nothing: its row is found
 * first, and a concurrent twin waits on a lock of the id and finds it too.
 */
export async function purchase(
  deps: PurchaseDependencies,
  em: EntityManager,
  request: PurchaseRequest,
  now: Date,
): Promise<PurchaseView> {
  const done = await auditedChange(
    deps,
    em,
    async (tx) => {
      const trx = tx.getTransactionContext<Knex.Transaction>()!;
      // Twins (a retry that took over a request still running) take turns from here, so the second
      // finds the first's purchase rather than its own refusal: had it read the reward first, the
      // last of a stock taken by the first would answer it 422.
      await trx.raw(`select pg_advisory_xact_lock(hashtext('purchase:' || ?))`, [request.id]);
      // A statement of its own: its snapshot is taken once the lock is held, so it sees the twin's commit.
      const earlier = await findPurchaseRow(trx, request.tenantId, request.id);
      if (earlier) return { view: purchaseView(earlier), created: false };
      const reward = await purchasableReward(trx, request, now);
      const partnerProduct = isPartnerProduct(reward.type);
      if (partnerProduct) await requirePartner(trx, request.tenantId, partnerOf(reward.type as PartnerProductType));
      const price = Number(reward.price);
      if (price > 0)
        await spend(trx, {
          tenantId: request.tenantId,
          userId: request.userId,
          points: price,
          cause: { purchaseId: request.id },
          at: now,
          policy: request.policy,
        });
      let voucherId: string | null = null;
      if (partnerProduct) await takeStock(trx, request.tenantId, reward);
      else
        voucherId = await grantVoucher(trx, deps.codes, {
          tenantId: request.tenantId,
          userId: request.userId,
          reward: voucherTermsOf(reward),
          now,
          cause: { purchaseId: request.id },
        });
      // Written last, with what it bought: its twin waits on the lock above, so none can write it first.
      const inserted = await trx.raw<{ rows: PurchaseRow[] }>(
        `insert into purchase (id, tenant_id, user_id, reward_id, resource_type, points, cost, status, voucher_id, partner_product_id, created_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         returning ${PURCHASE_COLUMNS}`,
        [
          request.id,
          request.tenantId,
          request.userId,
          reward.id,
          request.resource.type,
          reward.price,
          reward.cost,
          partnerProduct ? 'PENDING' : 'CONFIRMED',
          voucherId,
          reward.partner_product_id,
          now,
        ],
      );
      return { view: purchaseView(inserted.rows[0]!), created: true };
    },
    ({ view, created }) =>
      created
        ? {
            tenantId: request.tenantId,
            actor: request.actor,
            action: 'purchase.created',
            resourceType: 'purchase',
            resourceId: view.id,
            before: null,
            after: { ...view },
          }
        : undefined,
  );
  return done.view;
}

/** A purchase as a list shows it: the view, and the name of the reward bought (its `reward` populated). */
export function purchaseListView(record: Purchase): PurchaseListView {
  const view = purchaseView({
    id: record.id,
    user_id: record.user.id,
    reward_id: record.reward.id,
    resource_type: record.resourceType,
    points: String(record.points),
    voucher_id: record.voucherId ?? null,
    status: record.status,
    partner_reference: record.partnerReference ?? null,
    created_at: record.createdAt,
  });
  return { ...view, resource: { ...view.resource, name: record.reward.name } };
}

/** The purchase with this id in the tenant, as the API shows it; undefined when there is none. */
export async function findPurchase(em: EntityManager, tenantId: string, id: string): Promise<PurchaseView | undefined> {
  const row = await findPurchaseRow(em.getKnex(), tenantId, id);
  return row ? purchaseView(row) : undefined;
}

export async function findPurchaseRow(knex: Knex, tenantId: string, id: string): Promise<PurchaseRow | undefined> {
  const found = await knex.raw<{ rows: PurchaseRow[] }>(
    `select ${PURCHASE_COLUMNS} from purchase where tenant_id = ? and id = ?`,
    [tenantId, id],
  );
  return found.rows[0];
}

/** A partner product is sold only while its partner is configured: 422 RewardUnavailableError otherwise. */
async function requirePartner(trx: Knex.Transaction, tenantId: string, partner: Partner): Promise<void> {
  const found = await trx.raw<{ rows: { url: string | null }[] }>(
    `select configuration #>> array['partners', ?, 'url'] as url from tenant where id = ?`,
    [partner, tenantId],
  );
  if (!found.rows[0]?.url) throw new RewardUnavailableError(`The tenant has no ${partner} endpoint to order from`);
}

/** The reward a purchase names, if it can be bought now; otherwise the refusal the purchase answers. */
async function purchasableReward(trx: Knex.Transaction, request: PurchaseRequest, now: Date): Promise<RewardRow> {
  if (!isUuid(request.resource.id)) throw new NotFoundError(`No reward "${request.resource.id}"`);
  const found = await trx.raw<{ rows: RewardRow[] }>(
    `select id, type, price, cost, purchasable, available_from, available_until, stock, has_pool, voucher_validity_days,
            partner_product_id
       from reward where tenant_id = ? and id = ?`,
    [request.tenantId, request.resource.id],
  );
  const [reward] = found.rows;
  if (!reward) throw new NotFoundError(`No reward "${request.resource.id}"`);
  const expected = request.resource.type === 'REWARD' ? 'VOUCHER' : request.resource.type;
  if (reward.type !== expected)
    throw new ValidationError(`The reward "${reward.id}" is a ${reward.type}, not a ${request.resource.type}`, [
      {
        property: 'resource.type',
        value: request.resource.type,
        constraints: { matchesReward: `the reward is bought as ${reward.type === 'VOUCHER' ? 'REWARD' : reward.type}` },
        children: [],
      },
    ]);
  if (!reward.purchasable) throw new RewardNotPurchasableError('The reward is not for sale');
  const [from, until] = [reward.available_from, reward.available_until].map((at) => (at ? new Date(at) : null));
  if (from && now < from) throw new RewardUnavailableError(`The reward is available from ${from.toISOString()}`);
  if (until && now >= until) throw new RewardUnavailableError(`The reward was available until ${until.toISOString()}`);
  if (reward.stock !== null && reward.stock <= 0) throw new RewardUnavailableError('The reward is out of stock');
  return reward;
}

export function purchaseView(row: PurchaseRow): PurchaseView {
  const base = {
    id: row.id,
    user: { id: row.user_id },
    resource: { type: row.resource_type, id: row.reward_id },
    points: Number(row.points),
  };
  const at = new Date(row.created_at).toISOString();
  if (!isPartnerProduct(row.resource_type))
    return { ...base, benefit: { type: 'VOUCHER', id: row.voucher_id! }, completedAt: at };
  return {
    ...base,
    benefit: { type: row.resource_type, id: row.id },
    orderId: row.id,
    registeredAt: at,
    status: row.status,
    partnerReference: row.partner_reference,
    ...(row.resource_type === 'PARTNER2_PRODUCT' ? { delayed: row.status === 'PENDING' } : {}),
  };
}
