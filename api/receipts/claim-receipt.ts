import type { AppContext } from '../../shared/context.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { claimAsStored } from '../../shared/receipts/receipt-reads.js';
import { submitClaim } from '../../shared/receipts/submit-claim.js';
import { entityManager, type App } from '../app-env.js';
import { createsRecord } from '../middleware/idempotency.js';
import { success } from '../routes/answer.js';
import { defineRoute } from '../routes/define-route.js';
import { ClaimedReceipt } from '../../shared/receipts/receipt-views.js';
import { ClaimBody, RECEIPT_ID_EXAMPLE, tags } from './schema.js';

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
    operationId: 'claimReceipt',
    description:
      'Claims a receipt for a member, in one of two ways chosen by `useParser`: `true` sends an image (`pictureUrl`) that the service reads, answered at once with status PENDING; `false` sends data you parsed yourself, each field a `{value, confidence}`, answered with the automated decision when it comes in time. A member claims with its user token; an `admin:receipts` token claims for any `submitter`. Automated checks may authorize or reject the claim, or leave it to a person (`POST /v1/receipts/{id}/reviews`).',
    examples: {
      request: {
        useParser: true,
        pictureUrl: 'https://images.example.org/receipts/0042.jpg',
        submitter: { authIdentifier: 'member-17' },
        metadata: { source: 'mobile-app', campaignId: 'spring-2026' },
      },
      response: { id: RECEIPT_ID_EXAMPLE, status: 'PENDING', paramountReview: null },
    },
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
