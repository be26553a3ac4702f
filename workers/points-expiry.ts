import type { AppContext } from '../shared/context.js';
import type { JobHandler } from '../shared/job-catalog.js';
import { expirePoints } from '../shared/ledger/expire-points.js';

/**
 * `points-expiry` jobs, every POINTS_EXPIRY_EVERY_MS by BullMQ's job scheduler (one schedule for
 * all worker replicas): EXPIRY entries for the lots due (docs/points.md#the-sweep). A sweep still
 * running when the next is due, on this replica or another, holds the sweep's lock: the next one
 * returns at once and leaves the work to it.
 */
export function pointsExpiryHandler(context: AppContext): JobHandler<'points-expiry'> {
  const expiredPoints = context.metrics.counter({
    name: 'tally_points_expired_total',
    help: 'Points taken from balances by the expiry sweep (EXPIRY ledger entries), once per entry',
  });
  const expiryEntries = context.metrics.counter({
    name: 'tally_points_expiry_entries_total',
    help: 'EXPIRY ledger entries the expiry sweep wrote, one per expiring earning',
  });
  return async () => {
    const now = new Date(context.clock.now());
    const run = await expirePoints(context.orm.em.getKnex(), { now, batchSize: context.config.pointsExpiryBatchSize });
    if (!run.ran) {
      context.logger.info('points expiry sweep already running elsewhere: left to it');
      return;
    }
    expiredPoints.inc(run.points);
    expiryEntries.inc(run.entries);
    context.logger.info(
      { entries: run.entries, points: run.points, batches: run.batches, now: now.toISOString() },
      'points expiry sweep done',
    );
  };
}

/** The sweep's schedule: an upsert, so every worker replica may ask for it and one stays. */
export async function schedulePointsExpiry(context: AppContext): Promise<void> {
  await context.queues['points-expiry'].upsertJobScheduler(
    'expire-points',
    { every: context.config.pointsExpiryEveryMs },
    { name: 'sweep', data: {} },
  );
}
