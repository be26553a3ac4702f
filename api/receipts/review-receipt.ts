import { PLATFORM_TOKEN_ISSUER } from '../../shared/platform/auth/admin-token.js';
import type { Principal } from '../../shared/platform/auth/principal.js';
import type { AppContext } from '../../shared/context.js';
import { reviewView } from '../../shared/receipts/receipt-views.js';
import { Review } from '../../shared/receipts/review.entity.js';
import { reviewManually } from '../../shared/receipts/manual-review.js';
import { reviewDependencies } from '../../shared/receipts/review-service.js';
import { changedBy, type App } from '../app-env.js';
import { createsRecordOf } from '../middleware/idempotency.js';
import { defineRoute } from '../routes/define-route.js';
import { ReviewResource } from '../../shared/receipts/receipt-views.js';
import { admin, ReceiptIdParams, REVIEW_EXAMPLE, ReviewBody, tags } from './schema.js';

export function registerReviewReceipt(app: App, context: AppContext): void {
  const reviews = reviewDependencies(context);
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/receipts/:id/reviews',
    operationId: 'reviewReceipt',
    description:
      "A person's review of a receipt: AUTHORIZE or REJECT sets the receipt's status and becomes its deciding review, and its `correctedTotal`, when given, becomes the receipt's; ABSTAIN is recorded and changes nothing. The reviewer is the admin token's subject. A receipt whose member was erased takes no `comment` (400).",
    examples: {
      request: {
        verdict: 'AUTHORIZE',
        reason: 'VERIFIED',
        comment: 'Checked against the till roll: the total was misread',
        correctedTotal: 42.5,
      },
      response: REVIEW_EXAMPLE,
    },
    summary: 'Review a receipt: AUTHORIZE or REJECT sets its status; ABSTAIN is recorded and changes nothing',
    tags,
    access: admin,
    params: ReceiptIdParams,
    idempotency: createsRecordOf(Review, reviewView),
    body: ReviewBody,
    responses: { 201: { description: 'the review', data: ReviewResource } },
    errors: [404, 422],
    handler: async ({ params, body }, c) => {
      const principal = c.var.principal as Extract<Principal, { kind: 'admin' }>;
      const reviewer = { authIssuer: PLATFORM_TOKEN_ISSUER, authIdentifier: principal.subject };
      return reviewView(await reviewManually(reviews, changedBy(c), params.id, reviewer, body, c.var.reservedId));
    },
  });
}
