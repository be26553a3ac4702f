import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { receiptReviews } from '../../shared/receipts/receipt-reads.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { admin, ReceiptIdParams, ReviewResource, tags } from './schema.js';

export function registerListReviews(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/receipts/:id/reviews',
    summary: "A receipt's reviews, oldest first",
    tags,
    access: admin,
    params: ReceiptIdParams,
    responses: { 200: { description: 'the reviews', data: Type.Array(ReviewResource) } },
    errors: [404],
    handler: ({ params }, c) => receiptReviews(entityManager(c), c.var.tenant.id, params.id),
  });
}
