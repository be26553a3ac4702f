import type { AppContext } from '../../shared/context.js';
import { readReceiptView } from '../../shared/receipts/receipt-reads.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { admin, ReceiptIdParams, ReceiptResource, tags } from './schema.js';

export function registerGetReceipt(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/receipts/:id',
    summary: 'Read a receipt',
    tags,
    access: admin,
    params: ReceiptIdParams,
    responses: { 200: { description: 'the receipt', data: ReceiptResource } },
    errors: [404],
    handler: ({ params }, c) => readReceiptView(entityManager(c), c.var.tenant.id, params.id),
  });
}
