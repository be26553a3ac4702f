import type { Queue } from 'bullmq';

/**
 * What each feature's sweep of stranded work looks at: work older than `before` (it should have
 * moved on by then), events no older than `since`, at most `limit` items a kind per sweep.
 */
export interface SweepWindow {
  before: Date;
  since: Date;
  limit: number;
}

/** Moves a job that failed for good back to waiting, so it runs again; any other job is left alone. */
export async function retryIfFailed(queue: Queue, jobId: string): Promise<void> {
  const job = await queue.getJob(jobId);
  if (job && (await job.isFailed())) await job.retry();
}
