import type { AppContext } from '../shared/context.js';
import type { JobHandler } from '../shared/job-catalog.js';
import { recoverStranded, recoveryDependencies } from '../shared/recovery/recover-stranded.js';
import { RECOVERY_EVERY_MS } from '../shared/recovery/recovery-job.js';

/**
 * `recovery` jobs, every RECOVERY_EVERY_MS by BullMQ's job scheduler (one schedule for all worker
 * replicas; should a sweep outlast the interval, two overlap harmlessly, every re-queue being
 * idempotent): queue again what a crash between a commit and its queueing left behind.
 */
export function recoveryHandler(context: AppContext): JobHandler<'recovery'> {
  const dependencies = recoveryDependencies(context);
  return async () => {
    const recovered = await recoverStranded(dependencies);
    if (Object.values(recovered).some((count) => count > 0))
      context.logger.warn({ recovered }, 'found work waiting longer than it should: queued it again');
  };
}

/** The sweep's schedule: an upsert, so every worker replica may ask for it and one stays. */
export async function scheduleRecovery(context: AppContext): Promise<void> {
  await context.queues.recovery.upsertJobScheduler(
    'recover-stranded',
    { every: RECOVERY_EVERY_MS },
    { name: 'sweep', data: {} },
  );
}
