import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../api/metrics-server.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { sampleOf } from '../support/metric-samples.js';
import { dropDatabase } from '../../shared/platform/db/ensure-database.js';
import { CHECK_TIMEOUT_MS } from '../../api/operations/operations.js';
import { createHarness, dataOf, type Harness, type TestTenant, jsonOf, registerMember } from '../support/harness.js';
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
    // The completed set is only the history BullMQ keeps: not a count of anything (tally_jobs_total is).
    expect(text).not.toMatch(/tally_queue_jobs\{[^}]*state="completed"/);
    // prom-client's default process and Node metrics, under their usual names.
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(sampleOf(text, name)).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('labels every route by its template: /v1/openapi.json, a constrained path without its regexp, unmatched only for no route', async () => {
    expect((await harness.request(null, 'GET', '/v1/openapi.json')).status).toBe(200);
    const reactions = await harness.request(tenant, 'GET', '/v1/events/12345/reactions');
    expect((await harness.request(tenant, 'GET', '/v1/no_such_thing')).status).toBe(404);
    const text = await (await harness.request(null, 'GET', '/metrics')).text();
    const count = (route: string, status: string) =>
      sampleOf(text, 'tally_http_request_duration_seconds_count', { method: 'GET', route, status });
    expect(count('/v1/openapi.json', '200')).toBe(1);
    expect(count('/v1/events/:id/reactions', String(reactions.status))).toBe(1);
    expect(count('unmatched', '404')).toBe(1);
    expect(text).not.toContain('{[0-9]+}');
  });
});

// docs/operations.md#metrics: job runs, job durations, and the business counters, each counted once.
describe('job and business metrics', () => {
  let workers: Worker[] = [];
  afterAll(() => closeWorkers(workers));

  it('50 events reported and a duplicate: 51 jobs completed, 50 reports accepted, 50 registrations with their lag, their points; a duplicate counts once', async () => {
    const admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors']);
    const created = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name: 'COUNTED', description: 'x', isPrivate: true },
    });
    const { secret } = await dataOf<{ secret: string }>(created);
    await registerMember(harness, tenant, admin, 'counted-member');
    const reactor = await harness.request(tenant, 'POST', '/v1/reactors', {
      token: admin,
      body: {
        name: 'Three points',
        eventType: 'COUNTED',
        reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '3' }] } }],
      },
    });
    expect(reactor.status).toBe(201);
    workers = startWorkers(harness.context, ['events']);
    const report = (n: number) =>
      harness.request(tenant, 'POST', '/v1/events', {
        token: secret,
        body: { type: 'COUNTED', subject: 'counted-member', payload: { n } },
      });
    // One after the other: each report is a job of its own, the duplicate's too (the worker registers nothing of it).
    for (let n = 0; n < 50; n += 1) expect((await report(n)).status).toBe(201);
    expect((await report(0)).status).toBe(409);
    const scrape = async () => (await harness.request(null, 'GET', '/metrics')).text();
    await expect
      .poll(async () => sampleOf(await scrape(), 'tally_jobs_total', { queue: 'events', outcome: 'completed' }), {
        timeout: 30_000,
      })
      .toBe(51);
    const text = await scrape();
    expect(sampleOf(text, 'tally_job_duration_seconds_count', { queue: 'events' })).toBe(51);
    expect(sampleOf(text, 'tally_event_reports_total', { outcome: 'accepted' })).toBe(50);
    expect(sampleOf(text, 'tally_event_reports_total', { outcome: 'duplicate' })).toBe(1);
    expect(sampleOf(text, 'tally_event_registration_lag_seconds_count')).toBe(50);
    expect(sampleOf(text, 'tally_event_registration_lag_seconds_bucket', { le: '+Inf' })).toBe(50);
    expect(sampleOf(text, 'tally_points_granted_total')).toBe(150);
  }, 60_000);
});

// docs/operations.md#metrics: "METRICS_PORT serves /metrics there alone".
describe('METRICS_PORT', () => {
  it('serves /metrics on its own port, and the public listener answers 404 for it', async () => {
    const apart = await createHarness({ metricsPort: 0 });
    const server = await startMetricsServer(apart.context, 0);
    try {
      expect((await apart.request(null, 'GET', '/metrics')).status).toBe(404);
      expect((await apart.request(null, 'GET', '/health')).status).toBe(200);
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      // The public request above is counted, and its 404 is labelled unmatched: no route is there.
      expect(
        sampleOf(text, 'tally_http_request_duration_seconds_count', {
          method: 'GET',
          route: 'unmatched',
          status: '404',
        }),
      ).toBe(1);
      expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(404);
    } finally {
      await server.close();
      await apart.close();
    }
  });
});
