import type { Worker } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bigintArray } from '../../shared/db/bigint-array.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, dataOf, queryOne, registerMember, type Harness, type TestTenant } from '../support/harness.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';

let redis: PrivateRedis;
let harness: Harness;
let tenant: TestTenant;
let secret: string;
let workers: Worker[] = [];

beforeAll(async () => {
  // Its own Redis: flushing the scripts of the shared one would disturb the other test files.
  redis = await startPrivateRedis();
  harness = await createHarness({ redisUrl: redis.url });
  tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users']);
  const created = await harness.request(tenant, 'POST', '/v1/event_types', { token: admin, body: { name: 'SALE_MADE', description: 'x', isPrivate: true } });
  secret = (await dataOf<{ secret: string }>(created)).secret;
  await registerMember(harness, tenant, admin, 'member-1');
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
  await redis.stop();
});

const report = async (sale: number) => {
  const response = await harness.request(tenant, 'POST', '/v1/events', { token: secret, body: { type: 'SALE_MADE', subject: 'member-1', payload: { sale } } });
  expect(response.status).toBe(201);
  return (await dataOf<{ id: number }>(response)).id;
};

// decisions.md §11: "An accepted request is never lost: what is answered 201 or 202 is either
// committed in PostgreSQL or on a BullMQ queue".
it('POST /v1/events goes on accepting and queueing reports after Redis loses its scripts under open connections', async () => {
  const before = await report(1);
  // SCRIPT FLUSH, or a proxy moving the connections to another server: the connections stay open.
  await redis.client.script('FLUSH');
  const alone = await report(2);
  const together = await Promise.all([3, 4, 5].map(report));
  await redis.client.script('FLUSH');
  const again = await report(6);

  workers = startWorkers(harness.context, ['events']);
  const ids = [before, alone, ...together, again];
  await expect
    .poll(async () => (await queryOne(harness, 'select count(*)::int as n from event where id = any(?::bigint[])', [bigintArray(ids)])).n, { timeout: 10_000 })
    .toBe(ids.length);
});
