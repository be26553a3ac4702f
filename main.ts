/**
 * The service's entry point: `node dist/main.js all|api|worker [queue…]`.
 * `all` (npm start) migrates the database, then serves the API and runs every worker in one
 * process; `api` and `worker` run them apart so each scales on its own
 * (docs/operations.md#running).
 */
import type { Worker } from 'bullmq';
import { startApi, startOperations, type RunningApi } from './api/server.js';
import { startMetricsServer, type MetricsServer } from './api/metrics-server.js';
import { loadConfig } from './shared/platform/config/config.js';
import { ConfigError } from './shared/platform/config/environment.js';
import { closeContext, createContext, type AppContext } from './shared/context.js';
import {
  checkDependencies,
  DependencyUnavailableError,
  prepareDatabase,
} from './shared/platform/db/dependency-check.js';
import { migrate } from './shared/platform/db/orm.js';
import { createLogger, type Logger } from './shared/platform/logging/logger.js';
import { isQueueName, queueNames, type QueueName } from './shared/job-catalog.js';
import { schedulePointsExpiry } from './workers/points-expiry.js';
import { scheduleRecovery } from './workers/recovery.js';
import { closeWorkers, startWorkers } from './workers/start-workers.js';

async function main(argv: string[]): Promise<void> {
  const [mode = 'all', ...queueArguments] = argv;
  if (!['all', 'api', 'worker'].includes(mode)) throw new ConfigError(`Unknown mode "${mode}": use all, api or worker`);
  const queues = chooseQueues(queueArguments);
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 1, config.logFormat);

  await checkDependencies(config.databaseUrl, config.redisUrl);
  await prepareDatabase(config.databaseUrl);
  const context = await createContext(config, logger);
  const applied = mode === 'all' ? await migrate(context.orm) : [];

  const api: RunningApi = mode === 'worker' ? await startOperations(context) : await startApi(context);
  const workers: Worker[] = mode === 'api' ? [] : startWorkers(context, queues);
  const { metricsPort } = config;
  const metrics = metricsPort === undefined ? undefined : await startMetricsServer(context, metricsPort);
  if (workers.length && queues.includes('recovery')) await scheduleRecovery(context);
  if (workers.length && queues.includes('points-expiry')) await schedulePointsExpiry(context);
  logWhereItIs(logger, mode, config.service, api.port, metrics?.port);
  const newest = applied.at(-1);
  if (newest)
    logger.info(
      { migrations: applied.length, newest },
      `database migrated: ${applied.length} migrations applied, the newest ${newest}`,
    );
  if (workers.length) logger.info({ queues }, `workers started: ${queues.join(', ')}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void drain(signal, { api, workers, metrics }, context).then((code) => process.exit(code));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * The first lines of a start (docs/operations.md#logs): where the API, its reference and the
 * metrics are, or a worker-only process's operator routes; METRICS_PORT moves the metrics apart.
 */
function logWhereItIs(
  logger: Logger,
  mode: string,
  service: string,
  port: number,
  metricsPort: number | undefined,
): void {
  const address = `http://localhost:${port}`;
  const metrics = `http://localhost:${metricsPort ?? port}/metrics`;
  if (mode === 'worker') {
    logger.info({ address, metrics }, `Tally worker operations (/health, /ready) on ${address}, metrics on ${metrics}`);
    return;
  }
  const reference = `${address}/docs`;
  logger.info(
    { address, reference, metrics, routes: service },
    `Tally API listening on ${address}: its reference on ${reference}, metrics on ${metrics}`,
  );
}

/**
 * docs/operations.md#shutdown: the API and the workers drain side by side, then the connections
 * close, each step bounded so the whole fits SHUTDOWN_TIMEOUT_MS, and no step throws. Resolves to
 * the exit code: 0 unless a request received was left unanswered. A job left unfinished (its
 * worker did not close in time, or its Redis is away) is not lost: it stays active in Redis, and
 * another worker runs it again once its lock lapses; what it had committed in PostgreSQL is found
 * there, as every job is idempotent by a natural key.
 */
interface Running {
  api: RunningApi;
  workers: Worker[];
  metrics: MetricsServer | undefined;
}

async function drain(signal: string, { api, workers, metrics }: Running, context: AppContext): Promise<number> {
  const { config, logger } = context;
  const budgetMs = config.shutdownTimeoutMs;
  // The connections get a fifth of the budget (at most 2 s), and as much again is kept in hand, so
  // that the bounded steps end before the budget does.
  const closeMs = Math.min(2000, budgetMs / 5);
  const drainMs = budgetMs - 2 * closeMs;
  logger.info({ signal, drainMs }, 'draining: no new requests or jobs; finishing those in hand');
  // The last resort, should a step overrun its bound.
  setTimeout(() => {
    logger.error('drain took longer than SHUTDOWN_TIMEOUT_MS: exiting anyway');
    process.exit(1);
  }, budgetMs).unref();
  try {
    const [answered, closed] = await Promise.all([api.close(drainMs), closeWorkers(workers, drainMs)]);
    if (closed.late.length || closed.away.length)
      logger.warn(
        { notWithinDrain: closed.late, redisAway: closed.away },
        "workers left to the process's exit: the jobs they held run again once their lock lapses",
      );
    // Scrapes are cut rather than waited for: Prometheus asks again.
    await metrics?.close();
    await closeContext(context, closeMs);
    if (!answered)
      logger.error({ drainMs }, 'requests still unanswered when the drain ended: their connections were cut');
    logger.info('stopped');
    return answered ? 0 : 1;
  } catch (error) {
    logger.error({ err: error }, 'drain failed');
    return 1;
  }
}

function chooseQueues(names: string[]): QueueName[] {
  if (!names.length) return queueNames;
  const unknown = names.filter((name) => !isQueueName(name));
  if (unknown.length)
    throw new ConfigError(`Unknown queue ${unknown.join(', ')}: the queues are ${queueNames.join(', ')}`);
  return names as QueueName[];
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Expected start-up failures are one readable line; anything else keeps its stack.
  if (error instanceof DependencyUnavailableError || error instanceof ConfigError) {
    process.stderr.write(`tally: ${error.message}\n`);
  } else {
    process.stderr.write(
      `tally: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
