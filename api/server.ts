import { serve, type ServerType } from '@hono/node-server';
import { ConfigError } from '../shared/platform/config/config.js';
import type { AppContext } from '../shared/context.js';
import type { App } from './app-env.js';
import { createApp, createOperationsApp } from './app.js';

export interface RunningApi {
  server: ServerType;
  port: number;
  /** Stops accepting connections and resolves when the requests in flight have been answered. */
  close(): Promise<void>;
}

export function startApi(context: AppContext, port = context.config.port): Promise<RunningApi> {
  return serveApp(createApp(context), port, 'PORT');
}

/**
 * A worker-only process answers /health, /ready and /metrics on WORKER_PORT, so the orchestrator
 * can probe it and Prometheus can scrape its job outcomes.
 */
export function startOperations(context: AppContext, port = context.config.workerPort): Promise<RunningApi> {
  return serveApp(createOperationsApp(context), port, 'WORKER_PORT');
}

/** `setting`: the variable that sets this port, named when the port is taken. */
function serveApp(app: App, port: number, setting: 'PORT' | 'WORKER_PORT'): Promise<RunningApi> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: '0.0.0.0' }, (info) => {
      resolve({
        server,
        port: info.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            // Keep-alive sockets with no request in flight would hold close() open.
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          }),
      });
    });
    // A port already taken is a start-up failure with one line, like an unreachable database.
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(`Port ${port} is already in use: stop what listens there, or set ${setting}`)
          : error,
      ),
    );
  });
}
