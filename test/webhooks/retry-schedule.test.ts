import { Backoffs, type MinimalJob } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/platform/config/config.js';
import { deliveryJobOptions } from '../../shared/webhooks/webhook-job.js';

// docs/events.md#webhooks: deliveries are "retried with backoff for 24 h". The delivery tests run the
// schedule scaled down to milliseconds; this is the schedule a deployment runs by default, as
// BullMQ computes it from the options dispatch-webhooks.ts gives each delivery job.
describe('the webhook retry schedule', () => {
  it('retries with exponential backoff for 24 hours by default, and then gives up', async () => {
    const { webhookRetryBaseMs } = loadConfig({ PLATFORM_TOKEN_SECRET: 'a secret for this test alone' });
    const { attempts, backoff } = deliveryJobOptions('a-delivery', webhookRetryBaseMs);
    const delays: number[] = [];
    for (let attemptsMade = 1; attemptsMade < attempts; attemptsMade++) {
      delays.push(
        Number(
          await Backoffs.calculate(Backoffs.normalize(backoff)!, attemptsMade, new Error('500'), {} as MinimalJob),
        ),
      );
    }
    expect(delays).toHaveLength(10);
    expect(delays[0]).toBeGreaterThan(60_000);
    expect(delays.every((delay, n) => n === 0 || delay === 2 * delays[n - 1]!)).toBe(true);
    const hours = delays.reduce((sum, delay) => sum + delay, 0) / 3_600_000;
    expect(hours).toBeCloseTo(24, 2);
  });
});
