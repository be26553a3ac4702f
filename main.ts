/**
 * The service's entry point: `node dist/main.js all|api|worker [queue…]`.
 * `all` (npm start) migrates the database, then serves the API and runs every worker in one
 * process; `api` and `worker` run them apart so each scales on its own
 * (docs/operations.md#running).
 */
import type { Worker } from 'bullmq';
import { startApi, startOperations, type RunningApi } from './api/server.js';
import { startMetricsServer } from './api/metrics-server.js';
import { ConfigError, loadConfig } from './shared/platform/config/config.js';
import { closeContext, createContext } from './shared/context.js';
import { checkDependencies, DependencyUnavailableError } from './shared/platform/db/dependency-check.js';
import { ensureDatabase } from './shared/platform/db/ensure-database.js';
import { migrate } from './shared/platform/db/orm.js';
import { createLogger } from './shared/platform/logging/logger.js';
import { isQueueName, queueNames, type QueueName } from './shared/job-catalog.js';
import { scheduleRecovery } from './workers/recovery.js';
import { closeWorkers, startWorkers } from './workers/start-workers.js';

async function main(argv: string[]): Promise<void> {
  const [mode = 'all', ...queueArguments] = argv;
  if (!['all', 'api', 'worker'].includes(mode)) throw new ConfigError(`Unknown mode "${mode}": use all, api or worker`);
  const queues = chooseQueues(queueArguments);
  const config = loadConfig();
  const logger = createLogger(config.logLevel);

  await checkDependencies(config.databaseUrl, config.redisUrl);
  await ensureDatabase(config.databaseUrl);
  const context = await createContext(config, logger);
  if (mode === 'all') {
    const applied = await migrate(context.orm);
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  }

  const api: RunningApi = mode === 'worker' ? await startOperations(context) : await startApi(context);
  const workers: Worker[] = mode === 'api' ? [] : startWorkers(context, queues);
  const { metricsPort } = config;
  const metrics = metricsPort === undefined ? undefined : await startMetricsServer(context, metricsPort);
  if (metrics) logger.info({ address: `http://localhost:${metrics.port}/metrics` }, 'metrics served apart');
  if (workers.length && queues.includes('recovery')) await scheduleRecovery(context);
  if (mode === 'worker')
    logger.info(
      { address: `http://localhost:${api.port}` },
      `Tally worker operations (/health, /ready, /metrics) on http://localhost:${api.port}`,
    );
  else
    logger.info(
      { address: `http://localhost:${api.port}`, routes: config.service },
      `Tally API listening on http://localhost:${api.port}`,
    );
  if (workers.length) logger.info({ queues: mode === 'api' ? [] : queues }, 'workers started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining: no new requests or jobs; finishing those in hand');
    const timer = setTimeout(() => {
      logger.error('drain took longer than SHUTDOWN_TIMEOUT_MS: exiting anyway');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await api.close();
    await closeWorkers(workers);
    await metrics?.close();
    await closeContext(context);
    clearTimeout(timer);
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
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
