import type { AppContext } from '../shared/context.js';
import { failAdjustmentJob, runAdjustmentJob } from '../shared/jobs/bulk-adjustments.js';
import type { JobHandler } from '../shared/job-catalog.js';
import { isLastAttempt } from '../shared/platform/queues/worker-runner.js';

/**
 * `points-adjustments` jobs: one bulk adjustment each, worked from its cursor a batch per
 * transaction (docs/points.md#bulk-adjustments). A job that throws is retried and goes on where
 * its last commit left it; after its last attempt its row says `failed`.
 */
export function pointsAdjustmentsHandler(context: AppContext): JobHandler<'points-adjustments'> {
  const deps = { orm: context.orm, clock: context.clock, batchSize: context.config.pointsAdjustmentBatch };
  return async (data, job) => {
    try {
      await runAdjustmentJob(deps, data);
    } catch (error) {
      if (isLastAttempt(job)) await failAdjustmentJob(deps, data);
      throw error;
    }
  };
}
