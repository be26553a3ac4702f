import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { fieldError } from '../../shared/platform/errors/app-errors.js';
import { placeAfterPurchase, placementDependencies } from '../../shared/rewards/partner-orders.js';
import { findPurchase, purchase } from '../../shared/rewards/purchase-service.js';
import { findReferencedUser } from '../../shared/users/lookup-user.js';
import { findTokenUser } from '../../shared/users/user-service.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { CreatePurchaseBody, PURCHASE_EXAMPLE, PurchaseResource, tags } from './schema.js';

/** docs/rewards.md#purchases: a member's token buys for that member; an admin token names the member. */
export function registerCreatePurchase(app: App, context: AppContext): void {
  const deps = { ...context, codes: context.voucherCodes };
  const placement = placementDependencies(context);
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
    handler: async ({ body }, c) => {
      const principal = c.var.principal!;
      const em = entityManager(c);
      const tenantId = c.var.tenant.id;
      let userId: string;
      if (principal.kind === 'user') {
        if (body.subject)
          throw fieldError(
            'subject',
            body.subject,
            'absent',
            'A user token buys for its own member: leave out subject',
          );
        userId = (await findTokenUser(em, tenantId, principal.authIdentifier)).id;
      } else {
        if (!body.subject)
          throw fieldError('subject', undefined, 'required', 'An admin token names the member it buys for in subject');
        userId = (await findReferencedUser(em, tenantId, body.subject)).id;
      }
      const bought = await purchase(
        deps,
        em,
        {
          id: c.var.reservedId ?? randomUUID(),
          tenantId,
          userId,
          actor: actorOf(principal),
          resource: { type: body.resource.type, id: body.resource.id },
          policy: pointsPolicyOf(c.var.tenant.configuration),
        },
        new Date(context.clock.now()),
      );
      return placeAfterPurchase(placement, tenantId, bought);
    },
  });
}
