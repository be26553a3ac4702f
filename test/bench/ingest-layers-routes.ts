import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { App, AppEnv } from '../../api/app-env.js';
import { handleError } from '../../api/errors/error-handler.js';
import { reportDependencies, reportEventMiddleware, reportEventRoute } from '../../api/events/report-event.js';
import { apiKey } from '../../api/middleware/api-key.js';
import { defaultBodyLimit } from '../../api/middleware/body-limit.js';
import { rateLimit } from '../../api/middleware/rate-limit.js';
import { requestContext } from '../../api/middleware/request-context.js';
import type { AppContext } from '../../shared/context.js';
import { Batcher } from '../../shared/platform/queues/batcher.js';
import { FailedKeyAttempts } from '../../shared/platform/rate-limit/failed-key-attempts.js';
import { TokenBuckets } from '../../shared/platform/rate-limit/token-bucket.js';
import { CEILING_PATH } from './bench-world.js';

/** The paths of the layers served apart from the API (ingest-server.ts dispatches them). */
export const LAYERS_PREFIX = '/layers/';
const MIDDLEWARE_ONLY_PATH = '/v1/event-middleware';
const UNQUEUED_PATH = '/v1/event-unqueued';

/** The middleware every /v1 request passes, in the API's order (app.ts), each a layer of its own. */
const SHARED_LAYERS = ['request-context', 'body-limit', 'api-key', 'rate-limit'] as const;

/**
 * Controls, each on the middleware up to the API key: a wait shared by the requests of one turn of
 * the event loop, with and without a Redis round trip, as the rate limit and the queue writer wait
 * (queues/batcher.ts). Each set against the API key's layer, they tell what waiting itself costs
 * a request, and what one round trip shared by a turn's requests costs.
 */
const CONTROL_LAYERS = ['turn-wait', 'redis-ping'] as const;

/**
 * POST /v1/events taken apart: each route adds one part to the one before it, and all but the
 * last two answer a fixed accepted event of the usual size at once (those two answer the route's
 * own), so that the difference between two routes' CPU per request is what the added part costs.
 * A `control` row is set against the layer before it, and the next layer builds on that one.
 */
export const LAYER_ROUTES: { path: string; adds: string; control?: true }[] = [
  { path: CEILING_PATH, adds: 'the ceiling: parse the body, answer 201' },
  { path: `${LAYERS_PREFIX}bare`, adds: "read the body, answer an accepted event's JSON" },
  { path: `${LAYERS_PREFIX}request-context`, adds: 'request id, metrics, access log' },
  { path: `${LAYERS_PREFIX}body-limit`, adds: 'the 1 MB body limit' },
  { path: `${LAYERS_PREFIX}api-key`, adds: 'API key → tenant' },
  {
    path: `${LAYERS_PREFIX}turn-wait`,
    adds: 'control: the requests of a turn wait together for the next turn',
    control: true,
  },
  {
    path: `${LAYERS_PREFIX}redis-ping`,
    adds: 'control: the requests of a turn wait together for one Redis PING',
    control: true,
  },
  { path: `${LAYERS_PREFIX}rate-limit`, adds: 'the rate limit (Redis) and its headers' },
  {
    path: MIDDLEWARE_ONLY_PATH,
    adds: "the route's middleware (300 kB limit, idempotency, body schema), in the API's router",
  },
  {
    path: UNQUEUED_PATH,
    adds: 'the route but its Redis MULTI: type, authorization, payload schema, subject, id, duplicate identity, answer',
  },
  { path: '/v1/events', adds: "the route's MULTI: duplicate claim and queue write, one per turn's reports" },
];

const ACCEPTED = JSON.stringify({
  status: 'success',
  data: {
    id: 1234567,
    type: {
      id: '5f0c6b1e-8d4e-4a57-9a3e-1f2b3c4d5e6f',
      name: 'PURCHASE_MADE',
      description: 'A till transaction',
      isPrivate: true,
      isActive: true,
    },
    subject: { id: '0b7e8f8a-3c1d-4f7e-a1b2-c3d4e5f60718', authIdentifier: 'member-1', accountNumber: 1 },
    reportedAt: '2026-11-25T09:00:00.000Z',
    payload: { till: 'till-1', total: 12.5 },
  },
});

async function answerAccepted(c: Context): Promise<Response> {
  await c.req.text();
  return c.body(ACCEPTED, 201, { 'Content-Type': 'application/json' });
}

/**
 * Adds the two layers that run the route's own middleware to `api` (behind the API's /v1
 * middleware and router, as POST /v1/events is), and returns the app of the other layers.
 */
export function addLayers(api: App, context: AppContext): Hono<AppEnv> {
  api.post(MIDDLEWARE_ONLY_PATH, ...reportEventMiddleware(context), answerAccepted);
  // Every report accepted at once, with nothing sent to Redis: the route's own work alone.
  api.post(
    UNQUEUED_PATH,
    ...reportEventRoute(context, { ...reportDependencies(context), eventQueue: { enqueue: async () => true } }),
  );

  const buckets = new TokenBuckets(context.redis, context.config.redisPrefix);
  const middleware: Record<(typeof SHARED_LAYERS)[number], MiddlewareHandler<AppEnv>> = {
    'request-context': requestContext(context),
    'body-limit': defaultBodyLimit(),
    'api-key': apiKey(context, new FailedKeyAttempts(buckets)),
    'rate-limit': rateLimit(buckets),
  };
  const layers = new Hono<AppEnv>();
  layers.onError(handleError);
  layers.post(`${LAYERS_PREFIX}bare`, answerAccepted);
  /** Layer `name`: the shared middleware `below` in order, then `own`, then the fixed answer. */
  const serve = (
    name: string,
    below: readonly (typeof SHARED_LAYERS)[number][],
    ...own: MiddlewareHandler<AppEnv>[]
  ) => {
    for (const handler of [...below.map((shared) => middleware[shared]), ...own])
      layers.use(`${LAYERS_PREFIX}${name}`, handler);
    layers.post(`${LAYERS_PREFIX}${name}`, answerAccepted);
  };
  SHARED_LAYERS.forEach((name, index) => serve(name, SHARED_LAYERS.slice(0, index + 1)));
  const waits: Record<(typeof CONTROL_LAYERS)[number], Batcher<null>> = {
    'turn-wait': new Batcher(async () => undefined, Infinity, 0),
    'redis-ping': new Batcher(async () => void (await context.redis.ping()), Infinity, 0),
  };
  for (const name of CONTROL_LAYERS) {
    serve(name, SHARED_LAYERS.slice(0, SHARED_LAYERS.indexOf('api-key') + 1), async (_c, next) => {
      await waits[name].add(null);
      await next();
    });
  }
  return layers;
}
