import { Type } from 'typebox';
import { withTimeout } from '../../shared/async/with-timeout.js';
import type { AppContext } from '../../shared/context.js';
import { ServiceUnavailableError } from '../../shared/errors/app-errors.js';
import { queueNames } from '../../shared/queues/catalog.js';
import type { App } from '../app-env.js';
import { describe } from '../openapi/describe.js';

export const CHECK_TIMEOUT_MS = 2000;
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'waiting-children'] as const;

/** `/health`, `/ready`, `/metrics`: no API key, meant for the orchestrator and Prometheus (decisions.md §12). */
export function registerOperations(app: App, context: AppContext): void {
  app.get(
    '/health',
    describe({ summary: 'The process is alive', tags: ['Operations'], access: 'public', responses: { 200: { description: 'alive', data: Type.Object({ uptimeSeconds: Type.Number() }) } } }),
    (c) => c.json({ status: 'success', data: { uptimeSeconds: Math.round(process.uptime()) } }),
  );

  app.get(
    '/ready',
    describe({
      summary: 'PostgreSQL and Redis answer',
      tags: ['Operations'],
      access: 'public',
      responses: { 200: { description: 'ready', data: Type.Object({ postgres: Type.Literal('ok'), redis: Type.Literal('ok') }) } },
      errors: [503],
    }),
    async (c) => {
      const [postgres, redis] = await Promise.allSettled([
        withTimeout(context.orm.em.getConnection().execute('select 1'), CHECK_TIMEOUT_MS, context.clock),
        withTimeout(context.redis.ping(), CHECK_TIMEOUT_MS, context.clock),
      ]);
      const failing = [postgres.status === 'rejected' && 'PostgreSQL', redis.status === 'rejected' && 'Redis'].filter(Boolean);
      if (failing.length) throw new ServiceUnavailableError(`Not ready: ${failing.join(' and ')} did not answer`);
      return c.json({ status: 'success', data: { postgres: 'ok', redis: 'ok' } });
    },
  );

  app.get(
    '/metrics',
    describe({ summary: 'Prometheus metrics', tags: ['Operations'], access: 'public', responses: { 200: { description: 'text exposition format' } } }),
    async (c) => {
      await Promise.all(
        queueNames.map(async (name) => {
          const counts = await context.queues[name].getJobCounts(...QUEUE_STATES);
          for (const state of QUEUE_STATES) context.metrics.queueDepth.set({ queue: name, state }, counts[state] ?? 0);
        }),
      );
      return c.body(await context.metrics.registry.metrics(), 200, { 'Content-Type': context.metrics.registry.contentType });
    },
  );
}
