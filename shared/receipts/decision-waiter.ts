import type { Queue } from 'bullmq';
import type { Clock } from '../platform/async/clock.js';
import { JobEndWaiter } from '../platform/queues/job-end-waiter.js';
import type { Logger } from '../platform/logging/logger.js';
import type { RedisConnectionLog } from '../platform/redis/connection-log.js';
import type { ClaimedView } from './receipt-views.js';

/**
 * Lets POST /receipts wait for a preparsed claim's automated review (docs/receipts.md#claims: up to
 * RECEIPT_DECISION_WAIT_MS): the review job returns the claim's decision, or null when a manual
 * review came first and the caller reads the claim.
 */
export class DecisionWaiter extends JobEndWaiter<ClaimedView> {
  constructor(reviews: Queue, redisUrl: string, connections: RedisConnectionLog, logger: Logger, clock?: Clock) {
    super(
      reviews,
      redisUrl,
      connections,
      logger,
      { events: 'the review events', waiters: 'claims', outcome: 'decision' },
      clock,
    );
  }
}
