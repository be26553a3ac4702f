import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { receiptListItemView } from '../../shared/receipts/receipt-views.js';
import type { App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { admin, RECEIPT_LIST, ReceiptListItem, RECEIPT_ID_EXAMPLE, tags } from './schema.js';

export function registerListReceipts(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/receipts',
    operationId: 'listReceipts',
    description: `The claimed receipts, in summary. ${LIST_PAGE}`,
    examples: {
      response: [
        {
          id: RECEIPT_ID_EXAMPLE,
          createdAt: '2026-02-01T12:00:00.000Z',
          updatedAt: '2026-02-02T09:00:00.000Z',
          status: 'AUTHORIZED',
          notionallyServedAt: '2026-02-01T10:58:00.000Z',
          serviceDate: '2026-02-01',
          serviceTime: '11:58',
          ocrConfidence: '0.94',
          total: 24.5,
          subtotal: 35.42,
          correctedTotal: 42.5,
          currency: 'EUR',
          barcode: null,
        },
      ],
    },
    summary: 'List receipts',
    tags,
    access: admin,
    query: listQuery(RECEIPT_LIST),
    responses: { 200: { description: 'a page of receipts', data: Type.Array(ReceiptListItem) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Receipt, RECEIPT_LIST, query, receiptListItemView),
  });
}
