import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { ConfigError } from '../shared/platform/config/environment.js';
import type { AppContext } from '../shared/context.js';
import { scrapeMetrics } from './operations/operations.js';

export interface MetricsServer {
  port: number;
  /** Stops listening and ends open scrapes: a cut scrape loses nothing, Prometheus asks again. */
  close(): Promise<void>;
}

/**
 * `GET /metrics` alone on METRICS_PORT (docs/operations.md#metrics), so the metrics stay off the
 * public listener: the orchestrator exposes PORT and keeps this port inside the network. Anything
 * else answers 404.
 */
export function startMetricsServer(context: AppContext, port: number): Promise<MetricsServer> {
  const app = new Hono();
  app.get('/metrics', async (c) =>
    c.body(await scrapeMetrics(context), 200, { 'Content-Type': context.metrics.registry.contentType }),
  );
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: '0.0.0.0' }, (info) =>
      resolve({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      }),
    );
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(`Port ${port} is already in use: stop what listens there, or set METRICS_PORT`)
          : error,
      ),
    );
  });
}
