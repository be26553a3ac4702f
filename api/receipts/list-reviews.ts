import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { receiptReviews } from '../../shared/receipts/receipt-reads.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { RULE_SET_EXAMPLE } from '../rule-sets/schema.js';
import { admin, ReceiptIdParams, REVIEW_EXAMPLE, ReviewResource, tags } from './schema.js';

export function registerListReviews(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/receipts/:id/reviews',
    operationId: 'listReceiptReviews',
    description:
      'Every review of a receipt, automated and human, oldest first; an automated review lists each check and what it found.',
    examples: {
      response: [
        {
          id: '3b4c5d6e-7f8a-4b9c-8d0e-1f2a3b4c5d6e',
          verdict: 'ABSTAIN',
          reason: 'FLAGGED_FOR_SPOT_CHECK',
          createdAt: '2026-02-01T12:00:03.000Z',
          isAutomated: true,
          reviwer: null,
          comment: null,
          checks: [{ check: 'duplicate', passed: true }],
          ruleSetId: RULE_SET_EXAMPLE.id,
          ruleEngineResult: { bonusPoints: 50 },
        },
        REVIEW_EXAMPLE,
      ],
    },
    summary: "A receipt's reviews, oldest first",
    tags,
    access: admin,
    params: ReceiptIdParams,
    responses: { 200: { description: 'the reviews', data: Type.Array(ReviewResource) } },
    errors: [404],
    handler: ({ params }, c) => receiptReviews(entityManager(c), c.var.tenant.id, params.id),
  });
}
