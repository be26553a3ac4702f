import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bigintArray } from '../../shared/platform/db/bigint-array.js';
import { jobRecoveryBoundMs } from '../../shared/platform/config/config.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, dataOf, queryOne, registerMember, type Harness, type TestTenant } from '../support/harness.js';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';

let redis: PrivateRedis;
let harness: Harness;
let tenant: TestTenant;
let secret: string;
let workers: Worker[] = [];

beforeAll(async () => {
  // A Redis of this file's own: killing the shared one, or flushing its scripts, would disturb the other test files.
  redis = await startPrivateRedis();
  harness = await createHarness({ redisUrl: redis.url });
  tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors']);
  const created = await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'SALE_MADE', description: 'x', isPrivate: true },
  });
  secret = (await dataOf<{ secret: string }>(created)).secret;
  await registerMember(harness, tenant, admin, 'member-1');
  const point = { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '1' }] } };
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: { name: 'a point a sale', eventType: 'SALE_MADE', reactions: [point] },
  });
  workers = startWorkers(harness.context, ['events']);
});
afterAll(async () => {
  try {
    await closeWorkers(workers);
    await harness.close();
  } finally {
    // Whatever failed above, no redis-server is left running after the file.
    await redis.stop();
  }
});

const reportSale = (sale: number) =>
  harness.request(tenant, 'POST', '/v1/events', {
    token: secret,
    body: { type: 'SALE_MADE', subject: 'member-1', payload: { sale } },
  });

async function report(sale: number): Promise<number> {
  const response = await reportSale(sale);
  expect(response.status).toBe(201);
  return (await dataOf<{ id: number }>(response)).id;
}

/**
 * Each event registered once, and its one point granted once, within `withinMs`.
 */
async function expectRegisteredOnce(ids: number[], withinMs = 10_000): Promise<void> {
  const count = (table: string, column: string) =>
    queryOne(harness, `select count(*)::int as n from ${table} where ${column} = any(?::bigint[])`, [
      bigintArray(ids),
    ]).then((row) => row.n);
  await expect.poll(() => count('event', 'id'), { timeout: withinMs }).toBe(ids.length);
  expect(await count('ledger_entry', 'event_id')).toBe(ids.length);
}

// docs/operations.md#durability: "An accepted request is never lost: what is answered 201 or 202 is either
// committed in PostgreSQL or on a BullMQ queue".
it('POST /v1/events goes on accepting and queueing reports after Redis loses its scripts under open connections', async () => {
  const accepted = [await report(1)];
  // SCRIPT FLUSH, or a proxy moving the connections to another server: the connections stay open.
  await redis.client.script('FLUSH');
  accepted.push(await report(2));
  accepted.push(...(await Promise.all([3, 4, 5].map(report))));
  await redis.client.script('FLUSH');
  accepted.push(await report(6));
  await expectRegisteredOnce(accepted);
});

// docs/operations.md#durability: "Killing any one process with SIGKILL (API, worker, Redis with that
// configuration, PostgreSQL) loses no accepted work beyond that documented window and applies
// nothing twice."
it('reports made while Redis is down wait for it; after a SIGKILL and a restart nothing accepted is lost, and the duplicate window holds', async () => {
  const accepted = [await report(10), await report(11)];
  await redis.kill();
  const waiting = Promise.all([report(12), report(13)]);
  await sleep(500);
  await redis.restart();
  accepted.push(...(await waiting));
  // docs/events.md#duplicates: "Duplicates: same tenant, type, resolved subject and canonical payload (keys sorted) within 60 s."
  expect((await reportSale(10)).status).toBe(409);
  accepted.push(await report(14));
  // A job the worker was being handed as Redis died is active in Redis but unknown to the worker;
  // BullMQ runs it again once its lock lapsed and a stalled-job check found it
  // (docs/operations.md#durability), plus time for the batch itself on a busy machine.
  await expectRegisteredOnce(accepted, jobRecoveryBoundMs(harness.config) + 20_000);
}, 90_000);
