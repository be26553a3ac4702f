import type { AppContext } from '../../shared/context.js';
import { readPredictions } from '../../shared/ledger/points-outlook.js';
import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { entityManager, type App } from '../app-env.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';
import { WalletPredictionResource } from '../../shared/ledger/outlook-resource.js';

const WHAT =
  "what is left of the spend and earn caps in the current calendar period of the tenant's time zone (a WEEK starts " +
  'on Monday), and the points that expire within the next 1, 7, 30, 90 and 365 days, cumulative. Each member of ' +
  'the answer is present only when the tenant sets it (a spend cap, an earn cap, points expiry): `{}` with none.';

/** The predictions as the examples show them. */
const WALLET_PREDICTION_EXAMPLE = {
  pointsSpendPrediction: {
    overallSummary: { type: 'MAX_POINTS', summary: { pointsCap: 1000, remainingPoints: 750, percentageUsed: 25 } },
  },
  pointsEarnPrediction: {
    overallSummary: { type: 'MAX_POINTS', summary: { pointsCap: 300, remainingPoints: 100, percentageUsed: 66.66 } },
  },
  pointsExpiryPrediction: {
    overallSummary: {
      type: 'EXPIRY',
      summary: [
        { pointsDueToExpire: 0, timePeriod: 1 },
        { pointsDueToExpire: 40, timePeriod: 7 },
        { pointsDueToExpire: 40, timePeriod: 30 },
        { pointsDueToExpire: 165, timePeriod: 90 },
        { pointsDueToExpire: 425, timePeriod: 365 },
      ],
    },
  },
};

/** docs/points.md#predictions: the caps from the period's daily sums, the expiry from the member's lots. */
export function registerGetWalletPredictions(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: 'wallet/predictions',
    own: {
      summary: 'The wallet predictions of the member the user token speaks for',
      operationId: 'getOwnWalletPredictions',
      description: "For the member whose `authIdentifier` is the user token's `sub`: " + WHAT,
    },
    anyMember: {
      summary: "A member's wallet predictions",
      operationId: 'getUserWalletPredictions',
      description: 'For a member found by its id, `authIdentifier` or account number: ' + WHAT,
    },
    method: 'get',
    examples: { response: WALLET_PREDICTION_EXAMPLE },
    tags: ['Wallets'],
    responses: { 200: { description: 'the predictions', data: WalletPredictionResource } },
    errors: [404],
    handler: async (_input, c) => {
      const member = await memberOf(c);
      return readPredictions(
        entityManager(c).getKnex(),
        member.id,
        pointsPolicyOf(c.var.tenant.configuration),
        new Date(context.clock.now()),
      );
    },
  });
}
