import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Receipt } from '../../shared/receipts/receipt.entity.js';
import { receiptListItemView } from '../../shared/receipts/receipt-views.js';
import type { App } from '../app-env.js';
import { listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { admin, RECEIPT_LIST, ReceiptListItem, tags } from './schema.js';

export function registerListReceipts(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/receipts',
    summary: 'List receipts',
    tags,
    access: admin,
    query: listQuery(RECEIPT_LIST),
    responses: { 200: { description: 'a page of receipts', data: Type.Array(ReceiptListItem) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Receipt, RECEIPT_LIST, query, receiptListItemView),
  });
}
