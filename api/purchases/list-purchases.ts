import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Purchase } from '../../shared/rewards/purchase.entity.js';
import { purchaseListView } from '../../shared/rewards/purchase-service.js';
import type { App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import { defineRoute } from '../routes/define-route.js';
import { PurchaseListItem } from '../../shared/rewards/purchase-resource.js';
import { PURCHASE_LIST, PURCHASE_LIST_EXAMPLE, tags } from './schema.js';

/** docs/rewards.md#purchases: the tenant's purchases; a member's are api/users/list-user-purchases.ts. */
export function registerListPurchases(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/v1/purchases',
    operationId: 'listPurchases',
    description: `The tenant's purchases, newest first, each with the name of the reward bought. ${LIST_PAGE}`,
    examples: { response: PURCHASE_LIST_EXAMPLE },
    summary: 'List purchases',
    tags,
    access: { admin: 'admin:rewards' },
    query: listQuery(PURCHASE_LIST),
    responses: { 200: { description: 'a page of purchases; see Content-Range', data: Type.Array(PurchaseListItem) } },
    errors: [400],
    handler: ({ query }, c) => listPage(c, Purchase, PURCHASE_LIST, query, purchaseListView, { populate: ['reward'] }),
  });
}
