import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import { readPointsHistory } from '../../shared/ledger/points-history.js';
import { entityManager, type App } from '../app-env.js';
import { listQuery, pageAnswer } from '../lists/list-route.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';
import { PointsHistoryItem } from '../../shared/ledger/points-history-resource.js';
import { POINTS_HISTORY_EXAMPLE, POINTS_HISTORY_LIST, POINTS_HISTORY_PAGE, tags } from './schema.js';

const EXPLAINED =
  'Each entry names its cause in `cause`: the event and the reactor that granted it (EVENT), the receipt and its review (RECEIPT), ' +
  'the purchase and its reward (PURCHASE), the expired earning (EXPIRY), or the admin and reason of an adjustment (ADJUSTMENT); ' +
  'an earning cut by the earn cap also carries `requestedPoints`.';

/** docs/points.md#history: a member's ledger entries, each naming its cause, served as its wallet is. */
export function registerListPointsHistory(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: 'points-history',
    own: {
      summary: 'The points history of the member the user token speaks for',
      operationId: 'listOwnPointsHistory',
      description: `The ledger entries of the member whose \`authIdentifier\` is the user token's \`sub\`, newest first. ${EXPLAINED} ${POINTS_HISTORY_PAGE}`,
    },
    anyMember: {
      summary: "A member's points history",
      operationId: 'listUserPointsHistory',
      description: `A member's ledger entries, the member found by its id, \`authIdentifier\` or account number, newest first. ${EXPLAINED} ${POINTS_HISTORY_PAGE}`,
    },
    method: 'get',
    examples: { response: POINTS_HISTORY_EXAMPLE },
    tags,
    query: listQuery(POINTS_HISTORY_LIST),
    responses: {
      200: { description: 'a page of ledger entries; see Content-Range', data: Type.Array(PointsHistoryItem) },
    },
    errors: [400, 404],
    handler: async ({ query }, c) =>
      pageAnswer(
        POINTS_HISTORY_LIST,
        query,
        await readPointsHistory(entityManager(c), c.var.tenant.id, (await memberOf(c)).id, query),
      ),
  });
}
