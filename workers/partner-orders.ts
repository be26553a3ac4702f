import type { AppContext } from '../shared/context.js';
import type { JobHandler } from '../shared/job-catalog.js';
import { isLastAttempt } from '../shared/platform/queues/worker-runner.js';
import { partnerOrderDependencies, placePartnerOrder } from '../shared/rewards/partner-orders.js';

/**
 * `partner-orders` jobs: one attempt to place a partner product's order each; a partner that may
 * take it later throws and BullMQ retries with backoff. The outcome it returns is what a waiting
 * POST /purchases hears (docs/rewards.md#partner-products).
 */
export function partnerOrdersHandler(context: AppContext): JobHandler<'partner-orders'> {
  const dependencies = partnerOrderDependencies(context);
  return (data, job) => placePartnerOrder(dependencies, data, isLastAttempt(job));
}
