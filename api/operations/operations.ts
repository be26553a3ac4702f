import { Type } from 'typebox';
import { withTimeout } from '../../shared/platform/async/with-timeout.js';
import type { AppContext } from '../../shared/context.js';
import { pendingMigrations } from '../../shared/platform/db/orm.js';
import { ServiceUnavailableError } from '../../shared/platform/errors/app-errors.js';
import { queueNames } from '../../shared/job-catalog.js';
import type { App } from '../app-env.js';
import { defineRoute } from '../routes/define-route.js';

export const CHECK_TIMEOUT_MS = 2000;
const tags = ['Operations'];
/**
 * The states whose count is work still to do or work that failed for good (kept 7 days for the
 * recovery sweep). Not `completed`: that set holds only the history each queue keeps
 * (removeOnComplete in shared/job-catalog.ts; a job of reports is removed at once), so its count
 * said nothing of how many jobs ran. `tally_jobs_total` counts those.
 */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/** `/health`, `/ready`, `/metrics`: no API key, meant for the orchestrator and Prometheus (docs/operations.md#operator-endpoints). */
export function registerOperations(app: App, context: AppContext): void {
  defineRoute(app, context, {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    description:
      'Answers 200 while the process runs, whatever its dependencies do: a liveness probe. Needs no API key.',
    examples: { response: { uptimeSeconds: 3600 } },
    summary: 'The process is alive',
    tags,
    access: 'public',
    responses: {
      200: { description: 'alive', data: Type.Object({ uptimeSeconds: Type.Number() }, { title: 'Health' }) },
    },
    handler: () => ({ uptimeSeconds: Math.round(process.uptime()) }),
  });

  // docs/operations.md#operator-endpoints: ready means the schema is at this process's latest
  // migration too. Once it is, it stays so (migrations only go forward, and this process's list is
  // fixed), so the answer is kept and later probes cost one `select 1` again, not a table read.
  let migrated = false;
  const postgresCheck = async (): Promise<string[]> => {
    if (migrated) {
      await context.orm.em.getConnection().execute('select 1');
      return [];
    }
    const pending = await pendingMigrations(context.orm);
    migrated = pending.length === 0;
    return pending;
  };

  defineRoute(app, context, {
    method: 'get',
    path: '/ready',
    operationId: 'getReadiness',
    description:
      'Answers 200 when PostgreSQL and Redis both answer within 2 seconds and the database schema is at the latest migration, else 503 naming what is not ready (`data.pendingMigrations` lists migrations not yet applied): a readiness probe. Needs no API key.',
    examples: { response: { postgres: 'ok', redis: 'ok' } },
    summary: 'PostgreSQL and Redis answer, and the database schema is at the latest migration',
    tags,
    access: 'public',
    responses: {
      200: {
        description: 'ready',
        data: Type.Object({ postgres: Type.Literal('ok'), redis: Type.Literal('ok') }, { title: 'Readiness' }),
      },
    },
    errors: [503],
    handler: async () => {
      const [postgres, redis] = await Promise.allSettled([
        withTimeout(postgresCheck(), CHECK_TIMEOUT_MS, context.clock),
        withTimeout(context.redis.ping(), CHECK_TIMEOUT_MS, context.clock),
      ]);
      const failing = [postgres.status === 'rejected' && 'PostgreSQL', redis.status === 'rejected' && 'Redis'].filter(
        Boolean,
      );
      if (failing.length) throw new ServiceUnavailableError(`Not ready: ${failing.join(' and ')} did not answer`);
      const pending = postgres.status === 'fulfilled' ? postgres.value : [];
      if (pending.length) {
        throw new ServiceUnavailableError(
          `Not ready: the database is not migrated; ${pending.length} pending migration(s): ${pending.join(', ')}. Run tally migrate`,
          { data: { pendingMigrations: pending } },
        );
      }
      return { postgres: 'ok', redis: 'ok' } as const;
    },
  });

  // With METRICS_PORT set, /metrics is served there alone (api/metrics-server.ts), not on the public listener.
  if (context.config.metricsPort !== undefined) return;
  defineRoute(app, context, {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    description:
      "Prometheus metrics of this process in the text exposition format: request durations by route, jobs, business counters, queue depths and the process's own. Served on METRICS_PORT instead when that is set. Needs no API key.",
    examples: {
      response:
        '# HELP tally_http_request_duration_seconds Request duration\n# TYPE tally_http_request_duration_seconds histogram\n',
    },
    summary: 'Prometheus metrics (served here unless METRICS_PORT is set)',
    tags,
    access: 'public',
    responses: { 200: { description: 'text exposition format', contentType: 'text/plain' } },
    handler: async (_input, c) =>
      c.body(await scrapeMetrics(context), 200, { 'Content-Type': context.metrics.registry.contentType }),
  });
}

/**
 * The registry's text, the queues' depths read from Redis first. A queue Redis does not answer for
 * within the readiness check's bound is left out of this scrape rather than shown with stale
 * counts, so the process's own metrics still reach Prometheus while Redis is away.
 */
export async function scrapeMetrics(context: AppContext): Promise<string> {
  const { queueDepth } = context.metrics;
  await Promise.all(
    queueNames.map(async (queue) => {
      const counts = await withTimeout(
        context.queues[queue].getJobCounts(...QUEUE_STATES),
        CHECK_TIMEOUT_MS,
        context.clock,
      ).catch(() => undefined);
      for (const state of QUEUE_STATES) {
        if (counts) queueDepth.set({ queue, state }, counts[state] ?? 0);
        else queueDepth.remove({ queue, state });
      }
    }),
  );
  return context.metrics.registry.metrics();
}
