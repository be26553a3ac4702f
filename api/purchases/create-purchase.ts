import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { AppContext } from '../../shared/context.js';
import { NotFoundError, fieldError } from '../../shared/platform/errors/app-errors.js';
import { placeAfterPurchase, placementDependencies } from '../../shared/rewards/partner-orders.js';
import { findPurchase, purchase } from '../../shared/rewards/purchase-service.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { entityManager, type App, type AppEnv } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { CreatePurchaseBody, PARTNER_PURCHASE_EXAMPLE, PurchaseResource, tags } from './schema.js';

export function registerCreatePurchase(app: App, context: AppContext): void {
  const placement = placementDependencies(context);
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/purchases',
    operationId: 'createPurchase',
    description:
      "Buys a reward with points: a member's user token buys for itself, an `admin:rewards` token for the member named in `subject`. A voucher reward puts a voucher in the wallet; a partner product is ordered from the tenant's partner, and a PARTNER2 purchase says `delayed: true` when the partner has not confirmed it yet.",
    examples: {
      request: { resource: { type: 'PARTNER2_PRODUCT', id: PARTNER_PURCHASE_EXAMPLE.resource.id } },
      response: PARTNER_PURCHASE_EXAMPLE,
    },
    summary: 'Buy a reward with points',
    tags,
    access: { admin: 'admin:rewards', user: true },
    // A recovered purchase answers as it stands; a partner order it left unqueued is queued by the recovery sweep.
    idempotency: createsRecord(async (c, id) => {
      const found = await findPurchase(entityManager(c), c.var.tenant.id, id);
      return found ? success(c, found, 201) : undefined;
    }),
    body: CreatePurchaseBody,
    responses: { 201: { description: 'the purchase', data: PurchaseResource } },
    errors: [404, 409, 422],
    handler: async ({ body }, c) => {
      const tenantId = c.var.tenant.id;
      const bought = await purchase(
        { ...context, codes: context.voucherCodes },
        entityManager(c),
        {
          id: c.var.reservedId ?? randomUUID(),
          tenantId,
          userId: await buyer(context, c, body.subject),
          actor: actorOf(c.var.principal),
          resource: body.resource,
        },
        new Date(context.clock.now()),
      );
      return placeAfterPurchase(placement, tenantId, bought);
    },
  });
}

/** The member buying: the user token's own, or the admin's `subject`. */
async function buyer(context: AppContext, c: Context<AppEnv>, subject: string | number | undefined): Promise<string> {
  const principal = c.var.principal!;
  const tenantId = c.var.tenant.id;
  if (principal.kind === 'user') {
    if (subject !== undefined)
      throw fieldError('subject', subject, 'userToken', 'A user token buys for its own user: leave subject out');
    const user = await context.subjects.findByAuthIdentifier(tenantId, principal.authIdentifier);
    if (!user) throw new NotFoundError('The user of this token is not registered');
    return user.id;
  }
  if (subject === undefined)
    throw fieldError('subject', subject, 'required', 'An admin token names the member in subject');
  const user = await context.subjects.find(tenantId, subject);
  if (!user) throw new NotFoundError(`No member "${subject}"`);
  return user.id;
}
