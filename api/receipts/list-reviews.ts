import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { findTenantRecord } from '../../shared/platform/db/tenant-record.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { reviewView } from '../../shared/receipts/receipt-views.js';
import { Review } from '../../shared/receipts/review.entity.js';
import { entityManager, type App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { RULE_SET_EXAMPLE } from '../rule-sets/schema.js';
import { ReviewResource } from '../../shared/receipts/receipt-views.js';
import { admin, ReceiptIdParams, REVIEW_EXAMPLE, REVIEW_LIST, tags } from './schema.js';

export function registerListReviews(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/receipts/:id/reviews',
    operationId: 'listReceiptReviews',
    description: `Every review of a receipt, automated and human, newest first; an automated review lists each check and what it found. ${LIST_PAGE}`,
    examples: {
      response: [
        REVIEW_EXAMPLE,
        {
          id: '3b4c5d6e-7f8a-4b9c-8d0e-1f2a3b4c5d6e',
          verdict: 'ABSTAIN',
          reason: 'FLAGGED_FOR_SPOT_CHECK',
          createdAt: '2026-02-01T12:00:03.000Z',
          isAutomated: true,
          reviwer: null,
          comment: null,
          correctedTotal: null,
          checks: [{ check: 'duplicate', passed: true }],
          ruleSetId: RULE_SET_EXAMPLE.id,
          ruleEngineResult: { bonusPoints: 50 },
        },
      ],
    },
    summary: "A receipt's reviews, newest first",
    tags,
    access: admin,
    params: ReceiptIdParams,
    query: listQuery(REVIEW_LIST),
    responses: { 200: { description: 'a page of reviews', data: Type.Array(ReviewResource) } },
    errors: [400, 404],
    handler: async ({ params, query }, c) => {
      const receipt = await findTenantRecord(entityManager(c), Receipt, c.var.tenant.id, params.id, 'receipt');
      return listPage(c, Review, REVIEW_LIST, query, reviewView, { scope: { receipt: receipt.id } });
    },
  });
}
