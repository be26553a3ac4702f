import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../shared/context.js';
import { buyReward } from '../../shared/rewards/buy-reward.js';
import { findPurchase } from '../../shared/rewards/purchase-service.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { PurchaseResource } from '../../shared/rewards/purchase-resource.js';
import { CreatePurchaseBody, PURCHASE_EXAMPLE, tags } from './schema.js';

/** docs/rewards.md#purchases: a member's token buys for that member; an admin token names the member. */
export function registerCreatePurchase(app: App, context: AppContext): void {
  const deps = { ...context, codes: context.voucherCodes };
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/purchases',
    operationId: 'createPurchase',
    description:
      "Buys a reward with points: the price is spent from the member's balance and a voucher is put in the wallet, all at once or not at all; " +
      "a partner product is ordered from the tenant's partner instead, and a PARTNER2 purchase says `delayed: true` when the partner has not confirmed it within a short wait. " +
      'A user token buys for its own member and takes no `subject`; an admin token with `admin:rewards` names the member in `subject`. ' +
      'Refused with 422 `RewardNotPurchasableError` (not for sale), 422 `RewardUnavailableError` (outside its availability window, or out of stock), ' +
      "422 `InsufficientPointsError` (the balance is below the price), 422 `PointsCapExceededError` (beyond what is left of the tenant's spend cap for the period) and 409 `VoucherCodePoolExhaustedError` (its pool of codes is empty). " +
      'With `Idempotency-Key`, a retry answers the first purchase and charges nothing more.',
    examples: {
      request: { resource: { type: 'REWARD', id: PURCHASE_EXAMPLE.resource.id } },
      response: PURCHASE_EXAMPLE,
    },
    summary: 'Buy a reward with points',
    tags,
    access: { admin: 'admin:rewards', user: true },
    // A retry after the first request died past its commit answers that purchase (findPurchase); a
    // partner order it left unqueued is queued by the recovery sweep.
    idempotency: createsRecord(async (c, id) => {
      const found = await findPurchase(entityManager(c), c.var.tenant.id, id);
      return found ? success(c, found, 201) : undefined;
    }),
    body: CreatePurchaseBody,
    responses: { 201: { description: 'bought', data: PurchaseResource } },
    errors: [404, 409, 422],
    handler: async ({ body }, c) =>
      buyReward(
        deps,
        entityManager(c),
        {
          id: c.var.reservedId ?? randomUUID(),
          tenantId: c.var.tenant.id,
          principal: c.var.principal!,
          subject: body.subject,
          resource: { type: body.resource.type, id: body.resource.id },
          policy: pointsPolicyOf(c.var.tenant.configuration),
        },
        new Date(context.clock.now()),
      ),
  });
}
