import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { Purchase } from '../../shared/rewards/purchase.entity.js';
import { purchaseListView } from '../../shared/rewards/purchase-service.js';
import type { App } from '../app-env.js';
import { LIST_PAGE, listPage, listQuery } from '../lists/list-route.js';
import { PURCHASE_LIST, PURCHASE_LIST_EXAMPLE, tags } from '../purchases/schema.js';
import { PurchaseListItem } from '../../shared/rewards/purchase-resource.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';

/** docs/rewards.md#purchases: one member's purchases, served as its wallet is (get-wallet.ts). */
export function registerListUserPurchases(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: 'purchases',
    own: {
      summary: 'The purchases of the member the user token speaks for',
      operationId: 'listOwnPurchases',
      description: `The purchases of the member whose \`authIdentifier\` is the user token's \`sub\`, newest first. ${LIST_PAGE}`,
    },
    anyMember: {
      summary: "A member's purchases",
      operationId: 'listUserPurchases',
      description: `A member's purchases, the member found by its id, \`authIdentifier\` or account number, newest first. ${LIST_PAGE}`,
    },
    method: 'get',
    examples: { response: PURCHASE_LIST_EXAMPLE },
    tags,
    query: listQuery(PURCHASE_LIST),
    responses: { 200: { description: 'a page of purchases; see Content-Range', data: Type.Array(PurchaseListItem) } },
    errors: [400, 404],
    handler: async ({ query }, c) =>
      listPage(c, Purchase, PURCHASE_LIST, query, purchaseListView, {
        scope: { user: (await memberOf(c)).id },
        populate: ['reward'],
      }),
  });
}
