import { Type } from 'typebox';
import type { AppContext } from '../../shared/context.js';
import type { Principal } from '../../shared/platform/auth/principal.js';
import { grantsScope } from '../../shared/platform/auth/scopes.js';
import { readTier } from '../../shared/ledger/points-outlook.js';
import { pointsPolicyOf } from '../../shared/ledger/points-policy.js';
import { readPoints } from '../../shared/ledger/wallet-service.js';
import { readWalletVouchers } from '../../shared/rewards/wallet-vouchers.js';
import { userView } from '../../shared/users/user-view.js';
import { entityManager, type App } from '../app-env.js';
import { VoucherResource, WALLET_VOUCHER_EXAMPLE } from '../vouchers/schema.js';
import { defineMemberRoute, memberOf } from '../routes/member-target.js';
import { TierResource } from '../../shared/ledger/outlook-resource.js';

const WalletResource = Type.Object(
  {
    points: Type.Integer({ description: 'the balance: earned minus spent, expired and reversed; never below zero' }),
    lifetimeEarn: Type.Integer({ description: 'every point ever earned' }),
    loyaltyCost: Type.Number({
      description: "what the member's rewards cost the tenant: the sum of each obtained voucher's reward `cost`",
    }),
    tier: Type.Union([TierResource, Type.Null()], {
      description:
        "the member's tier, from the points it earned in the tenant's tier window; null when the tenant has no " +
        'tiers or those points reach none of them',
    }),
    vouchers: Type.Array(VoucherResource, {
      description:
        'the vouchers the member can still use, oldest first: not validated, not expired, and unredeemed (or, with ' +
        '`includeAllUnvalidatedVouchers=true`, redeemed and still within their redemption window)',
    }),
  },
  { title: 'Wallet' },
);

const WalletQuery = Type.Object({
  includeAllUnvalidatedVouchers: Type.Optional(
    Type.Boolean({
      description:
        'true: also the vouchers redeemed and not yet validated, while their redemption window lasts, each with its ' +
        'code; by default only the unredeemed vouchers',
    }),
  ),
  includeDiscounts: Type.Optional(
    Type.Boolean({ description: "true: each voucher's reward carries its `discounts` (an empty array when none)" }),
  ),
});

/** How vouchers leave the wallet, which both routes' descriptions end with. */
const LEAVES =
  ' A voucher leaves the wallet when a till validates it, when it expires, and when it was redeemed and its ' +
  "reward's `redemptionWindowMinutes` passed without a validation.";

/**
 * docs/users.md#wallet: points and lifetimeEarn from the ledger, the tier from the daily sums
 * (docs/points.md#tiers), the vouchers and loyaltyCost from the rewards.
 */
export function registerGetWallet(app: App, context: AppContext): void {
  defineMemberRoute(app, context, {
    resource: 'wallet',
    own: {
      summary: 'The wallet of the member the user token speaks for',
      operationId: 'getOwnWallet',
      description:
        "The wallet of the member whose `authIdentifier` is the user token's `sub`: the balance and every point ever " +
        'earned, both read from the ledger, its tier, the vouchers the member holds, and what its rewards cost.' +
        LEAVES,
    },
    anyMember: {
      summary: "A member's wallet",
      operationId: 'getUserWallet',
      description:
        "A member's wallet, the member found by its id, `authIdentifier` or account number: the balance and every " +
        'point ever earned, both read from the ledger, its tier, the vouchers the member holds, and what its rewards cost.' +
        LEAVES,
    },
    method: 'get',
    examples: {
      response: {
        points: 425,
        lifetimeEarn: 1310,
        loyaltyCost: 2.5,
        tier: { id: 'silver', name: 'Silver', expiringEarn: 120, pointsToMaintain: 0, pointsToNextTier: 690 },
        vouchers: [WALLET_VOUCHER_EXAMPLE],
      },
    },
    tags: ['Wallets'],
    query: WalletQuery,
    responses: { 200: { description: 'the wallet', data: WalletResource } },
    errors: [404],
    handler: async ({ query }, c) => {
      const em = entityManager(c);
      const tenantId = c.var.tenant.id;
      const member = await memberOf(c);
      const now = new Date(context.clock.now());
      const points = await readPoints(em, tenantId, member.id);
      const tier = await readTier(em.getKnex(), member.id, pointsPolicyOf(c.var.tenant.configuration), now);
      const vouchers = await readWalletVouchers(em.getKnex(), context.voucherCodes, tenantId, userView(member), now, {
        includeAllUnvalidatedVouchers: query.includeAllUnvalidatedVouchers ?? false,
        includeDiscounts: query.includeDiscounts ?? false,
        revealCode: canSeeCodes(c.var.principal),
      });
      return { ...points, tier, ...vouchers };
    },
  });
}

/** A redeemed code's value is for its owner and for the till (docs/rewards.md#codes), not for every wallet reader. */
function canSeeCodes(principal: Principal | undefined): boolean {
  return principal?.kind === 'user' || (principal?.kind === 'admin' && grantsScope(principal.scopes, 'admin:vouchers'));
}
