import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
