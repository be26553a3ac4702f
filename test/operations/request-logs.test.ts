import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, type Harness, type TestTenant } from '../support/harness.js';

const lines: Record<string, unknown>[] = [];
let harness: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  harness = await createHarness({}, { write: (line: string) => lines.push(JSON.parse(line)) });
  tenant = await harness.createTenant();
});
afterAll(() => harness.close());

// Issue 3 §7: "structured JSON logs with a request id on every line"
describe('request logs', () => {
  it('every line written while serving a request carries its request id, and no credential', async () => {
    lines.length = 0;
    const token = await harness.adminToken(tenant, ['admin:event_types']);
    await harness.request(tenant, 'POST', '/v1/event_types', {
      token,
      body: { name: 'LOGGED', description: 'x', isPrivate: true },
      headers: { 'X-Request-Id': 'req-logged-1' },
    });
    await harness.request(tenant, 'GET', '/v1/event_types?filter=bad(', {
      headers: { 'X-Request-Id': 'req-logged-2' },
    });
    const requestLines = lines.filter((line) => line.msg === 'request');
    expect(requestLines.map((line) => [line.requestId, line.status])).toEqual([
      ['req-logged-1', 201],
      ['req-logged-2', 400],
    ]);
    for (const line of lines) expect(line.requestId).toMatch(/^req-logged-/);
    // Lines of requests whose API key named a tenant carry it too.
    for (const line of requestLines) expect(line.tenantId).toBe(tenant.id);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(tenant.key);
    expect(text).not.toContain(token);
  });

  // docs/operations.md#logs: level names; probes and scrapes at debug; a database error's SQL only at debug.
  it("names each line's level, and logs probes and scrapes at debug, other requests at info", async () => {
    lines.length = 0;
    for (const path of ['/health', '/ready', '/metrics', '/v1/openapi.json']) await harness.request(null, 'GET', path);
    const requestLines = lines.filter((line) => line.msg === 'request');
    expect(requestLines.map((line) => [line.path, line.level])).toEqual([
      ['/health', 'debug'],
      ['/ready', 'debug'],
      ['/metrics', 'debug'],
      ['/v1/openapi.json', 'info'],
    ]);
  });

  it('a 500 caused by SQL logs its class and SQLSTATE at error, and its query only at debug', async () => {
    const token = await harness.adminToken(tenant, ['admin:rules']);
    const connection = harness.context.orm.em.fork().getConnection();
    await connection.execute('alter table venue rename to venue_away');
    lines.length = 0;
    try {
      const response = await harness.request(tenant, 'GET', '/v1/venues', { token });
      expect(response.status).toBe(500);
    } finally {
      await connection.execute('alter table venue_away rename to venue');
    }
    const atInfoOrAbove = lines.filter((line) => line.level !== 'debug');
    expect(atInfoOrAbove.find((line) => line.level === 'error')).toMatchObject({
      msg: 'unexpected database error',
      err: { code: '42P01' },
    });
    const query = /select .* from \\?"venue\\?"/i;
    expect(JSON.stringify(atInfoOrAbove)).not.toMatch(query);
    expect(lines.find((line) => line.level === 'debug' && query.test(JSON.stringify(line)))).toBeDefined();
  });

  it('one line per job at info: queue, job id, outcome, duration', async () => {
    const workers = startWorkers(harness.context, ['recovery']);
    try {
      lines.length = 0;
      const job = await harness.context.queues.recovery.add('sweep', {});
      await expect.poll(() => lines.filter((line) => line.msg === 'job'), { timeout: 20_000 }).toHaveLength(1);
      expect(lines.find((line) => line.msg === 'job')).toMatchObject({
        level: 'info',
        queue: 'recovery',
        jobId: job.id,
        outcome: 'completed',
        ms: expect.any(Number),
      });
    } finally {
      await closeWorkers(workers);
    }
  });
});
