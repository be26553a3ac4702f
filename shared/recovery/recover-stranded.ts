import type { AuditQueue } from '../audit/audit-job.js';
import { recoverAuditOutbox } from '../audit/recover-audit-outbox.js';
import type { EventsQueue } from '../events/event-job.js';
import type { PointsAdjustmentQueue } from '../jobs/points-adjustment-job.js';
import type { Config } from '../platform/config/config.js';
import type { ReceiptQueues } from '../receipts/receipt-job.js';
import type { PartnerOrderQueue } from '../rewards/partner-order-job.js';
import { retryFailedReportJobs } from '../events/stranded-events.js';
import { recoverStrandedJobs } from '../jobs/bulk-adjustments.js';
import type { IntrinsicEventDependencies } from '../events/queue-intrinsic-event.js';
import { recoverStrandedOrders } from '../orders/recover-stranded-orders.js';
import type { Orm } from '../platform/db/orm.js';
import type { SweepWindow } from '../platform/queues/stranded-work.js';
import { recoverStrandedClaims } from '../receipts/recover-stranded-claims.js';
import { recoverStrandedReferrals } from '../referrals/recover-stranded-referrals.js';
import { recoverStrandedPartnerOrders } from '../rewards/recover-partner-orders.js';

/** How long work may wait for its next step before it counts as stranded. */
export const STRANDED_AFTER_MS = 60_000;
/** Events are looked for this far back: an event of a type deactivated since is never registered. */
const LOOKBACK_MS = 24 * 3600_000;
const BATCH = 500;

export interface RecoveryDependencies extends IntrinsicEventDependencies {
  orm: Orm;
  /** Each sweep's queues. */
  queues: AuditQueue & EventsQueue & PartnerOrderQueue & PointsAdjustmentQueue & ReceiptQueues;
  partnerRetryBaseMs?: number | undefined;
}

export function recoveryDependencies(
  context: Omit<RecoveryDependencies, 'partnerRetryBaseMs'> & { config: Pick<Config, 'partnerRetryBaseMs'> },
): RecoveryDependencies {
  return {
    orm: context.orm,
    queues: context.queues,
    eventTypes: context.eventTypes,
    eventQueue: context.eventQueue,
    partnerRetryBaseMs: context.config.partnerRetryBaseMs,
  };
}

/** Each feature's sweep of its own stranded work, each answering what it queued again. */
const SWEEPS = [
  recoverStrandedClaims,
  recoverStrandedOrders,
  recoverStrandedReferrals,
  retryFailedReportJobs,
  recoverAuditOutbox,
  recoverStrandedPartnerOrders,
  recoverStrandedJobs,
] as const;

type CountsOf<Sweep extends (typeof SWEEPS)[number]> = Awaited<ReturnType<Sweep>>;
export type Recovered = CountsOf<typeof recoverStrandedClaims> &
  CountsOf<typeof recoverStrandedOrders> &
  CountsOf<typeof recoverStrandedReferrals> &
  CountsOf<typeof retryFailedReportJobs> &
  CountsOf<typeof recoverAuditOutbox> &
  CountsOf<typeof recoverStrandedPartnerOrders> &
  CountsOf<typeof recoverStrandedJobs>;

/**
 * What a crash between a commit and its queueing can strand, put on its queue again, feature by
 * feature (docs/operations.md#durability: an accepted request is never lost). Every step's job id
 * comes from what it is about, so queueing one that is in fact still waiting (a backlog) adds
 * nothing, and the event worker registers an event id once.
 */
export async function recoverStranded(
  deps: RecoveryDependencies,
  strandedAfterMs = STRANDED_AFTER_MS,
  now = new Date(),
): Promise<Recovered> {
  const window: SweepWindow = {
    before: new Date(now.getTime() - strandedAfterMs),
    since: new Date(now.getTime() - LOOKBACK_MS),
    limit: BATCH,
  };
  const counts = [];
  for (const sweep of SWEEPS) counts.push(await sweep(deps, window));
  return Object.assign({}, ...counts) as Recovered;
}
