import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropDatabase } from '../../shared/platform/db/ensure-database.js';
import { CHECK_TIMEOUT_MS } from '../../api/operations/operations.js';
import { createHarness, type Harness, type TestTenant, jsonOf } from '../support/harness.js';
import { ManualClock } from '../support/manual-clock.js';

let harness: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
});
afterAll(() => harness.close());

// docs/operations.md#operator-endpoints: "/health, /ready and /metrics need no API key (scrape /metrics from inside the network)."
describe('operations endpoints', () => {
  it('GET /health answers 200 without an API key', async () => {
    const response = await harness.request(null, 'GET', '/health');
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toMatchObject({ status: 'success', data: { uptimeSeconds: expect.any(Number) } });
  });

  it('GET /ready answers 200 when PostgreSQL and Redis answer', async () => {
    const response = await harness.request(null, 'GET', '/ready');
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toEqual({ status: 'success', data: { postgres: 'ok', redis: 'ok' } });
  });

  it('GET /ready answers 503 naming what does not answer, within its 2 s check', async () => {
    // The check's time is the test's clock: what is asserted is the bound it set, not how long a busy machine took.
    const clock = new ManualClock();
    const cut = await createHarness({ redisUrl: 'redis://127.0.0.1:1', clock });
    try {
      let answered = false;
      const answering = Promise.resolve(cut.request(null, 'GET', '/ready')).finally(() => (answered = true));
      // PostgreSQL answers and its timer is cancelled; Redis's stays set, at the configured bound, and nothing answers before it passes.
      await expect
        .poll(() => clock.timers.map((timer) => [timer.ms, timer.state]))
        .toEqual([
          [CHECK_TIMEOUT_MS, 'cancelled'],
          [CHECK_TIMEOUT_MS, 'pending'],
        ]);
      expect(CHECK_TIMEOUT_MS).toBe(2000);
      expect(answered).toBe(false);
      clock.advance(CHECK_TIMEOUT_MS);
      const response = await answering;
      expect(response.status).toBe(503);
      expect(await jsonOf(response)).toMatchObject({ status: 'error', message: 'Not ready: Redis did not answer' });
    } finally {
      // Not harness.close(): closing queues would wait for a Redis that is not there.
      cut.context.redis.disconnect();
      cut.context.queueRedis.disconnect();
      cut.context.reportRedis.disconnect();
      await cut.context.orm.close();
      await dropDatabase(cut.config.databaseUrl);
    }
  });

  it('every answer carries a request id, and a sane incoming one is kept', async () => {
    const generated = await harness.request(null, 'GET', '/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await harness.request(null, 'GET', '/health', { headers: { 'X-Request-Id': 'trace-abc.123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc.123');
    const refused = await harness.request(null, 'GET', '/health', {
      headers: { 'X-Request-Id': 'bad id with spaces' },
    });
    expect(refused.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('GET /metrics counts requests by route pattern and status, and reports queue depth', async () => {
    await harness.request(tenant, 'GET', '/v1/event_types');
    await harness.request(tenant, 'GET', '/v1/event_types/NOT_THERE', {
      token: await harness.adminToken(tenant, ['read:event_types']),
    });
    await harness.context.queues.audit.add('record', { probe: true } as never, { delay: 60_000 });
    const response = await harness.request(null, 'GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(
      /tally_http_request_duration_seconds_count\{method="GET",route="\/v1\/event_types",status="200"\} 1/,
    );
    // The pattern, not the path: ids never become label values.
    expect(text).toMatch(
      /tally_http_request_duration_seconds_count\{method="GET",route="\/v1\/event_types\/:identifier",status="404"\} 1/,
    );
    expect(text).toMatch(/tally_http_request_duration_seconds_bucket\{.*route="\/v1\/event_types".*\}/);
    expect(text).toMatch(/tally_queue_jobs\{queue="audit",state="delayed"\} 1/);
    expect(text).toContain('tally_jobs_total');
  });
});
