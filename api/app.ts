import { Hono } from 'hono';
import type { AppContext } from '../shared/context.js';
import { FailedKeyAttempts } from '../shared/platform/rate-limit/failed-key-attempts.js';
import { TokenBuckets } from '../shared/platform/rate-limit/token-bucket.js';
import type { App, AppEnv } from './app-env.js';
import { registerAuditLogRoutes } from './audit-log/index.js';
import { registerTenantRoutes } from './tenant/index.js';
import { handleError, handleNotFound } from './errors/error-handler.js';
import { registerEventTypeRoutes } from './event-types/index.js';
import { registerUserRoutes } from './users/index.js';
import { registerConsentRoutes } from './consent-types/index.js';
import { registerReactorRoutes } from './reactors/index.js';
import { registerEventRoutes } from './events/index.js';
import { registerWebhookRoutes } from './webhooks/index.js';
import { registerProductRoutes } from './products/index.js';
import { registerRewardRoutes } from './rewards/index.js';
import { registerVenueRoutes } from './venues/index.js';
import { registerRuleSetRoutes } from './rule-sets/index.js';
import { registerOrderRoutes } from './orders/index.js';
import { registerReceiptRoutes } from './receipts/index.js';
import { registerPurchaseRoutes } from './purchases/index.js';
import { registerVoucherRoutes } from './vouchers/index.js';
import { registerPointsRoutes } from './points/index.js';
import { registerJobRoutes } from './jobs/index.js';
import { registerReferralCampaignRoutes } from './referral-campaigns/index.js';
import { registerReferralCodeRoutes } from './referral-codes/index.js';
import { registerReferralActivityRoutes } from './referral-activities/index.js';
import { apiKey } from './middleware/api-key.js';
import { defaultBodyLimit } from './middleware/body-limit.js';
import { corsPreflight, tenantCors } from './middleware/cors.js';
import { CorsOrigins } from '../shared/tenants/cors-origins.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import { registerDocumentation } from './openapi/document.js';
import { registerOperations } from './operations/operations.js';

type RouteGroup = (app: App, context: AppContext) => void;

/** The routes of each service; `SERVICE` picks which a process serves (docs/operations.md#running). */
const SERVICES: Record<'platform' | 'rewards' | 'receipts', RouteGroup[]> = {
  platform: [registerAuditLogRoutes, registerTenantRoutes],
  rewards: [
    registerEventTypeRoutes,
    registerUserRoutes,
    registerConsentRoutes,
    registerReactorRoutes,
    registerEventRoutes,
    registerWebhookRoutes,
    registerRewardRoutes,
    registerPurchaseRoutes,
    registerVoucherRoutes,
    registerPointsRoutes,
    registerJobRoutes,
    registerReferralCampaignRoutes,
    registerReferralCodeRoutes,
    registerReferralActivityRoutes,
  ],
  receipts: [
    registerProductRoutes,
    registerVenueRoutes,
    registerRuleSetRoutes,
    registerOrderRoutes,
    registerReceiptRoutes,
  ],
};

export function createApp(context: AppContext): App {
  // The operations routes come first, before the /v1 middleware: they answer without an API key.
  const app = createOperationsApp(context);
  registerDocumentation(app, context.config.publicBaseUrl);

  const buckets = new TokenBuckets(context.redis, context.config.redisPrefix, {
    timeoutMs: context.config.rateLimitRedisTimeoutMs,
    clock: context.clock,
    registry: context.metrics.registry,
  });
  // docs/api-conventions.md#browsers: preflights carry no API key; the answers to the requests
  // themselves are opened to the key's tenant's origins alone, 429s included.
  app.use('/v1/*', corsPreflight(new CorsOrigins(context.orm, context.config.cacheTtlMs)));
  app.use('/v1/*', defaultBodyLimit());
  app.use('/v1/*', apiKey(context, new FailedKeyAttempts(buckets)));
  app.use('/v1/*', tenantCors());
  app.use('/v1/*', rateLimit(buckets));

  const { service } = context.config;
  const groups = [
    ...SERVICES.platform,
    ...(service !== 'receipts' ? SERVICES.rewards : []),
    ...(service !== 'rewards' ? SERVICES.receipts : []),
  ];
  for (const register of groups) register(app, context);
  return app;
}

/** /health, /ready and /metrics alone: what a worker-only process serves. */
export function createOperationsApp(context: AppContext): App {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use('*', requestContext(context));
  registerOperations(app, context);
  return app;
}
