import { Server as HttpServer, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Config } from '../shared/platform/config/config.js';
import { ConfigError } from '../shared/platform/config/environment.js';
import type { AppContext } from '../shared/context.js';
import type { App } from './app-env.js';
import { createApp, createOperationsApp } from './app.js';
import { lingerOnClose } from './lingering-close.js';

export interface RunningApi {
  server: ServerType;
  port: number;
  /**
   * Stops accepting connections and drains those open (docs/operations.md#shutdown); resolves to
   * whether every request received was answered within `ms` (10 s by default). Past `ms` the
   * connections left are cut.
   */
  close(ms?: number): Promise<boolean>;
}

export function startApi(context: AppContext, port = context.config.port): Promise<RunningApi> {
  return serveApp(createApp(context), context.config, port, 'PORT');
}

/**
 * A worker-only process answers /health, /ready and /metrics on WORKER_PORT, so the orchestrator
 * can probe it and Prometheus can scrape its job outcomes.
 */
export function startOperations(context: AppContext, port = context.config.workerPort): Promise<RunningApi> {
  return serveApp(createOperationsApp(context), context.config, port, 'WORKER_PORT');
}

/** `setting`: the variable that sets this port, named when the port is taken. */
function serveApp(app: App, config: Config, port: number, setting: 'PORT' | 'WORKER_PORT'): Promise<RunningApi> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: '0.0.0.0' }, (info) => {
      resolve({ server, port: info.port, close });
    });
    const close = drainOnClose(server as HttpServer);
    lingerOnClose(server as HttpServer, {
      timeMs: config.lingeringTimeMs,
      timeoutMs: config.lingeringTimeoutMs,
      bytes: config.lingeringBytes,
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

/**
 * docs/operations.md#shutdown: once closing, every answer says `Connection: close` and its
 * connection closes after it, so clients under keep-alive load move to another replica instead of
 * being served here for ever. A connection idle when the drain starts is not cut: a request its
 * client writes in that instant would be reset. It closes when its keep-alive timeout lapses (Node
 * announces it in `Keep-Alive: timeout=5`, and clients such as undici stop reusing a connection
 * before then), or after answering one more request.
 */
function drainOnClose(server: HttpServer): (ms?: number) => Promise<boolean> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // Before the app's listener, so the header is set before the app writes its answer.
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (draining) response.setHeader('Connection', 'close');
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
  });
  return (ms = 10_000) =>
    new Promise<boolean>((resolve) => {
      draining = true;
      for (const response of inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
      const deadline = setTimeout(() => {
        const answered = inFlight.size === 0;
        server.closeAllConnections();
        resolve(answered);
      }, ms);
      // net.Server's close, not http.Server's: the latter cuts idle keep-alive connections at once
      // (closeIdleConnections), resetting a request written to one as the drain starts. This one
      // stops listening and calls back once every connection has closed.
      NetServer.prototype.close.call(server, () => {
        clearTimeout(deadline);
        resolve(true);
      });
    });
}
