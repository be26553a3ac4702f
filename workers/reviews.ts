import type { AppContext } from '../shared/context.js';
import { reviewAutomatically, reviewDependencies } from '../shared/receipts/review-service.js';
import type { JobHandler } from '../shared/job-catalog.js';

/** `reviews` jobs: the automated decision on a parsed claim (docs/receipts.md#automated-checks), stored once per claim. */
export function reviewsHandler(context: AppContext): JobHandler<'reviews'> {
  const dependencies = reviewDependencies(context);
  return async (data) => {
    const { tenantId, receiptId } = data;
    // The claim's decision, for a POST /receipts waiting on it (DecisionWaiter); null when it reads it itself.
    return (await reviewAutomatically(dependencies, tenantId, receiptId)) ?? null;
  };
}
