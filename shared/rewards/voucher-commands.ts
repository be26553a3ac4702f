import type { Knex } from 'knex';
import type { Actor } from '../audit/audit-job.js';
import { auditedChange, type AdminChange, type AuditDependencies } from '../audit/audit-log.js';
import type { EntityManager } from '../platform/db/orm.js';
import { isUuid } from '../platform/db/tenant-record.js';
import { NotFoundError, VoucherAlreadyValidatedError, VoucherExpiredError } from '../platform/errors/app-errors.js';
import { User } from '../users/user.entity.js';
import { userView } from '../users/user-view.js';
import type { VoucherCodes } from './voucher-codes.js';
import { VOUCHER_FROM, VOUCHER_SELECT, voucherGone, voucherView, type VoucherRow } from './voucher-view.js';
import type { VoucherView } from './voucher-resource.js';

const MINUTE_MS = 60_000;

export interface VoucherCommandDependencies extends AuditDependencies {
  codes: VoucherCodes;
}

export interface RedeemRequest {
  tenantId: string;
  voucherId: string;
  /** A member's token redeems only its own vouchers: another member's is 404, as if it did not exist. */
  ownerId?: string;
  actor: Actor;
}

/**
 * The member starts redemption at the till (docs/rewards.md#at-the-till): `redeemedAt` is `now`,
 * and the till has the reward's `redemptionWindowMinutes` to validate the code, which the answer
 * reveals. A voucher redeemed already and still in its window answers as it is (a retried tap is
 * not an error, and the window does not restart); 409 VoucherAlreadyValidatedError once burned; 410
 * VoucherExpiredError past `expiresAt` or past its window. The row is locked while it is decided,
 * so two taps at once redeem once. Audited `voucher.redeemed`, without the code.
 */
export async function redeemBenefit(
  deps: VoucherCommandDependencies,
  em: EntityManager,
  request: RedeemRequest,
  now: Date,
): Promise<VoucherView> {
  const { row } = await auditedChange(
    deps,
    em,
    async (tx) => {
      const trx = tx.getTransactionContext<Knex.Transaction>()!;
      const found = isUuid(request.voucherId)
        ? await trx.raw<{ rows: VoucherRow[] }>(
            `${VOUCHER_SELECT} ${VOUCHER_FROM}
              where v.tenant_id = ? and v.id = ? ${request.ownerId ? 'and v.user_id = ?' : ''} for update of v`,
            [request.tenantId, request.voucherId, ...(request.ownerId ? [request.ownerId] : [])],
          )
        : { rows: [] };
      const [before] = found.rows;
      if (!before) throw new NotFoundError(`No voucher "${request.voucherId}"`);
      refuseGone(before, now);
      if (before.redeemed_at) return { row: before, before: undefined };
      const redemptionEndsAt = new Date(now.getTime() + before.reward_redemption_window_minutes * MINUTE_MS);
      await trx.raw(
        'update voucher set redeemed_at = ?, redemption_ends_at = ?, updated_at = ? where id = ? and tenant_id = ?',
        [now, redemptionEndsAt, now, before.id, request.tenantId],
      );
      return {
        row: { ...before, redeemed_at: now, redemption_ends_at: redemptionEndsAt, updated_at: now },
        before,
      };
    },
    ({ row: after, before }) =>
      before && auditEntry(request.tenantId, request.actor, 'voucher.redeemed', before, after),
  );
  return viewOf(em, deps.codes, row);
}

export interface ValidateRequest {
  tenantId: string;
  /** The code as the member shows it, matched in its printed form (case, dashes and spaces aside). */
  code: string;
  actor: Actor;
}

/**
 * The till burns a voucher's code (docs/rewards.md#at-the-till): 404 for a code no voucher holds,
 * 409 VoucherAlreadyValidatedError for one burned already, 410 VoucherExpiredError past
 * `expiresAt` or past its redemption window. A voucher the member never redeemed may be validated
 * too: the member is at the till with the code, and it is redeemed and burned at once. The burn is
 * one conditional update, so of two tills validating one code at the same moment, one burns it and
 * the other, waiting on the row, finds it burned: 409. Audited `voucher.validated`, without the code.
 */
export async function validateVoucher(
  deps: VoucherCommandDependencies,
  em: EntityManager,
  request: ValidateRequest,
  now: Date,
): Promise<VoucherView> {
  const { after: validated } = await auditedChange(
    deps,
    em,
    async (tx) => {
      const trx = tx.getTransactionContext<Knex.Transaction>()!;
      const [printed, exact] = deps.codes.lookupKeys(request.tenantId, request.code);
      // A code stored under its printed form's key is the one meant, before one uploaded under its exact one.
      const found = await trx.raw<{ rows: VoucherRow[] }>(
        `${VOUCHER_SELECT} ${VOUCHER_FROM} where c.tenant_id = ? and c.code_hash in (?, ?)
          order by c.code_hash = ? desc limit 1`,
        [request.tenantId, printed, exact, printed],
      );
      const [before] = found.rows;
      if (!before) throw new NotFoundError('No voucher holds this code');
      refuseGone(before, now);
      const redemptionEndsAt = new Date(now.getTime() + before.reward_redemption_window_minutes * MINUTE_MS);
      const burned = await trx.raw<{ rows: Pick<VoucherRow, 'redeemed_at' | 'redemption_ends_at'>[] }>(
        `update voucher set burned_at = ?, updated_at = ?,
           redeemed_at = coalesce(redeemed_at, ?), redemption_ends_at = coalesce(redemption_ends_at, ?)
         where id = ? and tenant_id = ? and burned_at is null returning redeemed_at, redemption_ends_at`,
        [now, now, now, redemptionEndsAt, before.id, request.tenantId],
      );
      const [done] = burned.rows;
      if (!done) throw new VoucherAlreadyValidatedError('The voucher was validated already');
      return { before, after: { ...before, ...done, burned_at: now, updated_at: now } };
    },
    ({ before, after }) => auditEntry(request.tenantId, request.actor, 'voucher.validated', before, after),
  );
  return viewOf(em, deps.codes, validated);
}

function refuseGone(row: VoucherRow, now: Date): void {
  const gone = voucherGone(row, now);
  if (gone === 'burned') throw new VoucherAlreadyValidatedError('The voucher was validated already');
  if (gone === 'expired')
    throw new VoucherExpiredError(
      row.redemption_ends_at && new Date(row.redemption_ends_at) <= now
        ? 'The voucher was redeemed and its redemption window has passed'
        : 'The voucher has expired',
    );
}

/** The voucher with its owner, as the commands answer it: with the reward's discounts, which the till applies. */
async function viewOf(em: EntityManager, codes: VoucherCodes, row: VoucherRow): Promise<VoucherView> {
  const owner = await em.findOneOrFail(User, { tenant: row.tenant_id, id: row.user_id });
  return voucherView(row, codes, userView(owner), { includeDiscounts: true, revealCode: true });
}

/** The audit entry of a command: the voucher's state before and after, never its code. */
function auditEntry(
  tenantId: string,
  actor: Actor,
  action: string,
  before: VoucherRow,
  after: VoucherRow,
): AdminChange {
  return {
    tenantId,
    actor,
    action,
    resourceType: 'voucher',
    resourceId: after.id,
    before: state(before),
    after: state(after),
  };
}

function state(row: VoucherRow): Record<string, unknown> {
  const at = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);
  return {
    id: row.id,
    user: { id: row.user_id },
    reward: { id: row.reward_id },
    expiresAt: at(row.expires_at),
    redeemedAt: at(row.redeemed_at),
    redemptionEndsAt: at(row.redemption_ends_at),
    burnedAt: at(row.burned_at),
  };
}
