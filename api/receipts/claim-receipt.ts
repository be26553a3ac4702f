import type { AppContext } from '../../shared/context.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { claimAsStored } from '../../shared/receipts/receipt-reads.js';
import { submitClaim } from '../../shared/receipts/submit-claim.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { ClaimBody, ClaimedReceipt, tags } from './schema.js';

export function registerClaimReceipt(app: App, context: AppContext): void {
  const claims = {
    queues: context.queues,
    products: context.products,
    decisions: context.decisions,
    decisionWaitMs: context.config.receiptDecisionWaitMs,
    subjects: context.subjects,
  };
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/receipts',
    summary:
      'Claim a receipt: an image to read (answered at once) or preparsed data (answered with the automated decision when it comes in time)',
    tags,
    access: { admin: 'admin:receipts', user: true },
    // A recovered claim answers as it stands now, decided or not; its review jobs are queued again by the recovery sweep.
    idempotency: createsRecord(async (c, id) => {
      const em = entityManager(c);
      return (await em.count(Receipt, { tenant: c.var.tenant.id, id }))
        ? success(c, await claimAsStored(em, c.var.tenant.id, id), 201)
        : undefined;
    }),
    body: ClaimBody,
    responses: { 201: { description: 'the claim; paramountReview null until it is reviewed', data: ClaimedReceipt } },
    errors: [404, 422],
    handler: ({ body }, c) =>
      submitClaim(entityManager(c), claims, c.var.tenant, c.var.principal!, body, c.var.reservedId),
  });
}
