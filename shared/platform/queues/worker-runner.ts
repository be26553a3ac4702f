import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Logger } from '../logging/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { isConnectionError, type RedisConnectionLog } from '../redis/connection-log.js';
import { closeRedis, createRedis } from '../redis/redis.js';
import { compile, toValidationIssues } from '../validation/ajv.js';
import type { Static } from 'typebox';
import { queuePrefix, type QueueDefinition } from './queue-factory.js';

/**
 * Runs one job; what it resolves to is the job's return value, kept with the completed job and
 * handed to whoever waits for it. `close`, when present, releases what the handler holds once its
 * worker has closed.
 */
export type JobProcessor<Data> = ((data: Data, job: Job, token?: string) => Promise<unknown>) & {
  close?: () => Promise<void>;
};

/** Whether the job's run now is its last: a failure of this one is final, no retry follows. */
export function isLastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** How long QUIT on a closed worker's connection may take before the connection is dropped instead. */
const WORKER_CONNECTION_CLOSE_MS = 1000;

export interface WorkerDependencies {
  redisUrl: string;
  redisPrefix: string;
  /** BullMQ's lockDuration: how long a job stays locked to its worker without renewal. */
  lockMs: number;
  /** BullMQ's stalledInterval: how often a worker looks for jobs whose lock lapsed. */
  stalledCheckMs: number;
  logger: Logger;
  redisConnections: RedisConnectionLog;
  metrics: Metrics;
}

/**
 * Runs one queue's jobs: checks the payload against the catalog, hands it to the handler, and
 * records the outcome. Retries and their backoff come from the catalog's job options; a job whose
 * lock lapses (its process died) is picked up again by BullMQ's stalled-job check, so handlers
 * must be idempotent by a natural key.
 */
export function startWorker<Definition extends QueueDefinition>(
  name: string,
  definition: Definition,
  handler: JobProcessor<Static<Definition['payload']>>,
  deps: WorkerDependencies,
): Worker {
  const validate = compile<Static<Definition['payload']>>(definition.payload);
  const log = deps.logger.child({ queue: name });
  const durations = deps.metrics.jobDuration.labels({ queue: name });
  // When each run started, kept with the job BullMQ hands to the processor and then to the events below.
  const started = new WeakMap<Job, bigint>();
  const secondsOf = (job: Job | undefined) => {
    const start = job && started.get(job);
    return start === undefined ? undefined : Number(process.hrtime.bigint() - start) / 1e9;
  };

  // Workers block on their connection, so each gets its own rather than the shared one.
  const connection = createRedis(deps.redisUrl, `tally-worker-${name}`, {
    connections: deps.redisConnections,
  });
  const worker = new Worker(
    name,
    async (job, token) => {
      started.set(job, process.hrtime.bigint());
      if (!validate(job.data)) {
        const issues = toValidationIssues(validate.errors, job.data);
        throw new UnrecoverableError(`payload does not match the ${name} schema: ${JSON.stringify(issues)}`);
      }
      return handler(job.data, job, token);
    },
    {
      connection,
      prefix: queuePrefix(deps.redisPrefix, name),
      concurrency: definition.concurrency,
      // docs/operations.md#durability: a dead worker's jobs run again within lockMs + stalledCheckMs.
      lockDuration: deps.lockMs,
      stalledInterval: deps.stalledCheckMs,
      maxStalledCount: 2,
    },
  );

  // One line per job run at info (docs/operations.md#logs), and its duration: what a dashboard and a
  // reader of the log follow a queue by. Counted when BullMQ has recorded the outcome in Redis.
  worker.on('completed', (job) => {
    const seconds = secondsOf(job);
    if (seconds !== undefined) durations.observe(seconds);
    deps.metrics.jobOutcomes.inc({ queue: name, outcome: 'completed' });
    log.info({ jobId: job.id, outcome: 'completed', attempts: job.attemptsMade, ms: milliseconds(seconds) }, 'job');
  });
  worker.on('failed', (job, error) => {
    const willRetry =
      job !== undefined && job.attemptsMade < (job.opts.attempts ?? 1) && !(error instanceof UnrecoverableError);
    const outcome = willRetry ? 'retried' : 'failed';
    const seconds = secondsOf(job);
    if (seconds !== undefined) durations.observe(seconds);
    deps.metrics.jobOutcomes.inc({ queue: name, outcome });
    log[willRetry ? 'warn' : 'error'](
      { jobId: job?.id, outcome, attempts: job?.attemptsMade, ms: milliseconds(seconds), err: error },
      willRetry ? 'job failed, will retry' : 'job failed for good',
    );
  });
  worker.on('stalled', (jobId) =>
    log.warn({ jobId }, 'job stalled: its worker stopped renewing the lock, it runs again'),
  );
  // A connection error is already in the log, once per outage (connection-log.ts); BullMQ emits
  // one for each of its connections and each retry.
  worker.on('error', (error) => {
    if (!isConnectionError(error)) log.error({ err: error }, 'worker error');
  });
  // BullMQ leaves a connection it was handed open: close ours once the worker is done with it.
  worker.on('closed', () => {
    void closeRedis(connection, WORKER_CONNECTION_CLOSE_MS);
    void handler.close?.().catch((error: unknown) => log.warn({ err: error }, 'handler did not close cleanly'));
  });
  return worker;
}

/** A duration as the logs show it: milliseconds to a tenth. */
function milliseconds(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : Math.round(seconds * 1e4) / 10;
}
