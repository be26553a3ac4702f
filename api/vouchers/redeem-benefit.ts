import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { redeemBenefit } from '../../shared/rewards/voucher-commands.js';
import { findTokenUser } from '../../shared/users/user-service.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { REDEEMED_VOUCHER_EXAMPLE, RedeemBenefitBody, tags, VoucherResource } from './schema.js';

export function registerRedeemBenefit(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/commands/redeem_benefit',
    operationId: 'redeemBenefit',
    summary: 'Start redeeming a voucher at the till',
    description:
      "The member starts redemption: `redeemedAt` is set, the answer reveals the voucher's `code`, and the till has " +
      "the reward's `redemptionWindowMinutes` to validate it (`POST /v1/commands/validate_voucher`). Past that window, " +
      'unvalidated, the voucher is gone from the wallet and its code answers 410.\n\n' +
      "A member's user token redeems its own vouchers only: another member's voucher is 404, as an unknown one. An " +
      'admin token with `admin:vouchers` redeems any voucher of the tenant. Redeeming again while the window lasts ' +
      'answers the same voucher, `redeemedAt` unchanged (a retried tap is not an error). A validated voucher is 409 ' +
      '`VoucherAlreadyValidatedError`; one past `expiresAt`, or redeemed and past its window, 410 `VoucherExpiredError`. ' +
      'Audited as `voucher.redeemed`, without the code.',
    examples: { request: { voucherId: REDEEMED_VOUCHER_EXAMPLE.id }, response: REDEEMED_VOUCHER_EXAMPLE },
    tags,
    access: { admin: 'admin:vouchers', user: true },
    body: RedeemBenefitBody,
    responses: { 200: { description: 'the voucher, redeemed, with its code', data: VoucherResource } },
    errors: [404, 409, 410],
    handler: async ({ body }, c) => {
      const principal = c.var.principal;
      const tenantId = c.var.tenant.id;
      const em = entityManager(c);
      const owner =
        principal?.kind === 'user' ? await findTokenUser(em, tenantId, principal.authIdentifier) : undefined;
      return redeemBenefit(
        { ...context, codes: context.voucherCodes },
        em,
        { tenantId, voucherId: body.voucherId, actor: actorOf(principal), ...(owner ? { ownerId: owner.id } : {}) },
        new Date(context.clock.now()),
      );
    },
  });
}
