/**
 * The API as `npm run start:api` serves it, plus the ceiling the benchmark compares it with: a bare
 * Hono route on the same server and port that parses the same body and answers 201, with none of
 * the platform's work. With `--layers`, also the layers of POST /v1/events that ingest-layers.ts
 * measures (ingest-layers-routes.ts). Prints `{"port": N}` on stdout once it listens; SIGTERM closes it.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../shared/platform/config/config.js';
import { closeContext, createContext } from '../../shared/context.js';
import { createLogger } from '../../shared/platform/logging/logger.js';
import { CEILING_PATH } from './bench-world.js';
import { addLayers, LAYERS_PREFIX } from './ingest-layers-routes.js';

const config = loadConfig();
const context = await createContext(config, createLogger(config.logLevel, 2));
const app = createApp(context);
const ceiling = new Hono().post(CEILING_PATH, async (c) =>
  c.json({ status: 'success', data: { received: Object.keys(await c.req.json()).length } }, 201),
);
// Only with --layers, so that the benchmark's own server dispatches exactly as before.
const layers = process.argv.includes('--layers') ? addLayers(app, context) : undefined;

const server = serve(
  {
    fetch: (request, env) => {
      if (request.url.endsWith(CEILING_PATH)) return ceiling.fetch(request, env);
      if (layers && request.url.includes(LAYERS_PREFIX)) return layers.fetch(request, env);
      return app.fetch(request, env);
    },
    port: 0,
    hostname: '127.0.0.1',
  },
  (info) => process.stdout.write(`${JSON.stringify({ port: info.port })}\n`),
);

process.on('SIGTERM', () => {
  server.close(() => void closeContext(context).then(() => process.exit(0)));
  if ('closeIdleConnections' in server) server.closeIdleConnections();
});
