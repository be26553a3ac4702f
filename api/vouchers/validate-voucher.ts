import type { AppContext } from '../../shared/context.js';
import { actorOf } from '../../shared/audit/audit-log.js';
import { validateVoucher } from '../../shared/rewards/voucher-commands.js';
import { entityManager, type App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';
import { tags, VALIDATED_VOUCHER_EXAMPLE, ValidateVoucherBody, VoucherResource } from './schema.js';

export function registerValidateVoucher(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'post',
    path: '/v1/commands/validate_voucher',
    operationId: 'validateVoucher',
    summary: 'Validate (burn) a voucher code at the till',
    description:
      'The till burns the code the member shows, typed in any case and with any dashes or spaces: `burnedAt` is set ' +
      'and the voucher leaves the wallet. A voucher the member has not redeemed may be validated too (the member is ' +
      'at the till with its code): it is redeemed and burned at once. An unknown code, or a pool code no voucher ' +
      'holds, is 404; a code validated already 409 `VoucherAlreadyValidatedError`; a voucher past `expiresAt`, or ' +
      'redeemed and past its redemption window, 410 `VoucherExpiredError`. A code is burned once: of two tills ' +
      'validating it at the same moment, one is answered 200 and the other 409. The answer carries the code and ' +
      "the reward's `discounts`, for the till to apply. Audited as `voucher.validated`, without the code.",
    examples: { request: { code: VALIDATED_VOUCHER_EXAMPLE.code.value }, response: VALIDATED_VOUCHER_EXAMPLE },
    tags,
    access: { admin: 'admin:vouchers' },
    body: ValidateVoucherBody,
    responses: { 200: { description: 'the voucher, validated', data: VoucherResource } },
    errors: [404, 409, 410],
    handler: ({ body }, c) =>
      validateVoucher(
        { ...context, codes: context.voucherCodes },
        entityManager(c),
        { tenantId: c.var.tenant.id, code: body.code, actor: actorOf(c.var.principal) },
        new Date(context.clock.now()),
      ),
  });
}
