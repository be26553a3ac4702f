import type { Queue } from 'bullmq';
import { Type, type Static } from 'typebox';

/** The payload of one `points-adjustments` job: the job row it works through (job.entity.ts). */
export const PointsAdjustmentJob = Type.Object(
  { tenantId: Type.String({ format: 'uuid' }), jobId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
export type PointsAdjustmentJob = Static<typeof PointsAdjustmentJob>;

/** The queue bulk points adjustments are worked from. */
export interface PointsAdjustmentQueue {
  'points-adjustments': Queue<PointsAdjustmentJob>;
}

/** The BullMQ job's id is the job row's: queued again (a retried request, the recovery sweep), it is one job. */
export function pointsAdjustmentJobOptions(jobId: string) {
  return { jobId: `points-adjustment-${jobId}` } as const;
}

/** How many lines one transaction applies, unless POINTS_ADJUSTMENT_BATCH says otherwise. */
export const DEFAULT_ADJUSTMENT_BATCH = 1000;
