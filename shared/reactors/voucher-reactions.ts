import type { Knex } from 'knex';
import type { EventJob } from '../events/event-job.js';
import type { StoredReaction, VoucherOutcome } from '../events/stored-reaction.js';
import { RewardUnavailableError, VoucherCodePoolExhaustedError } from '../platform/errors/app-errors.js';
import {
  grantVoucher,
  VOUCHER_TERMS_COLUMNS,
  voucherTermsOf,
  type VoucherTerms,
  type VoucherTermsRow,
} from '../rewards/grant-voucher.js';
import type { VoucherCodes } from '../rewards/voucher-codes.js';

/** A VOUCHER reaction of an event this run registered, to be given. */
interface VoucherToGrant {
  job: EventJob;
  reaction: Extract<StoredReaction, { type: 'VOUCHER' }>;
}

/**
 * Gives the vouchers of the VOUCHER reactions of the events this run inserted
 * (docs/events.md#reactions), and stores each outcome on its event's reaction. Each grant runs in
 * a savepoint of its own, so a refusal (the pool empty, the stock gone) undoes
 * that grant alone and is recorded as FAILED with its reason: the event, its points and its other
 * vouchers are registered all the same. Grants go in reward order, so concurrent batches take the
 * rewards' stock rows in one order and wait for one another rather than deadlock.
 */
export async function grantVouchers(
  trx: Knex.Transaction,
  codes: VoucherCodes,
  registrations: { job: EventJob; outcome: { reactions: StoredReaction[] } }[],
  now: Date,
): Promise<void> {
  const grants: VoucherToGrant[] = registrations.flatMap(({ job, outcome }) =>
    outcome.reactions.flatMap((reaction) => (reaction.type === 'VOUCHER' ? [{ job, reaction }] : [])),
  );
  if (grants.length === 0) return;
  const rewards = await voucherRewards(trx, grants);
  const outcomes = new Map<VoucherToGrant['reaction'], VoucherOutcome>();
  for (const grant of grants.toSorted((a, b) => a.reaction.rewardId.localeCompare(b.reaction.rewardId)))
    outcomes.set(
      grant.reaction,
      await grantReactionVoucher(trx, codes, grant, rewards.get(grant.reaction.rewardId), now),
    );
  const granting = new Set(grants.map(({ job }) => job));
  const withVouchers = registrations.filter(({ job }) => granting.has(job));
  const rows = withVouchers.map(({ job, outcome }) => ({
    id: job.id,
    tenant_id: job.tenantId,
    reactions: outcome.reactions.map((reaction) =>
      reaction.type === 'VOUCHER' ? { ...reaction, ...outcomes.get(reaction) } : reaction,
    ),
  }));
  await trx.raw(
    `update event set reactions = r.reactions
       from jsonb_to_recordset(?::jsonb) as r(id bigint, tenant_id uuid, reactions jsonb)
      where event.tenant_id = r.tenant_id and event.id = r.id`,
    [JSON.stringify(rows)],
  );
}

/** The VOUCHER rewards these grants name, each within its event's tenant, in one query; keyed by id. */
async function voucherRewards(trx: Knex.Transaction, grants: VoucherToGrant[]): Promise<Map<string, VoucherTerms>> {
  const found = await trx.raw<{ rows: VoucherTermsRow[] }>(
    `select ${VOUCHER_TERMS_COLUMNS} from reward
      where type = 'VOUCHER' and (tenant_id, id) in (select * from unnest(?::uuid[], ?::uuid[]))`,
    [grants.map(({ job }) => job.tenantId), grants.map(({ reaction }) => reaction.rewardId)],
  );
  return new Map(found.rows.map((row) => [row.id, voucherTermsOf(row)]));
}

/** One VOUCHER reaction's voucher, in a savepoint: its id, or the refusal that left the member without. */
async function grantReactionVoucher(
  trx: Knex.Transaction,
  codes: VoucherCodes,
  { job, reaction }: VoucherToGrant,
  reward: VoucherTerms | undefined,
  now: Date,
): Promise<VoucherOutcome> {
  try {
    if (!reward) throw new RewardUnavailableError(`No VOUCHER reward ${reaction.rewardId} any more`);
    const voucherId = await trx.transaction((savepoint) =>
      grantVoucher(savepoint, codes, {
        tenantId: job.tenantId,
        userId: job.userId!,
        reward,
        now,
        cause: { eventId: job.id, reactorId: reaction.reactorId },
      }),
    );
    return { status: 'GRANTED', voucherId };
  } catch (error) {
    if (error instanceof RewardUnavailableError || error instanceof VoucherCodePoolExhaustedError)
      return { status: 'FAILED', reason: `${error.name}: ${error.message}` };
    throw error;
  }
}
