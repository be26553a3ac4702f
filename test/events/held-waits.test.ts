import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAITS_PER_TENANT } from '../../shared/events/registration-watch.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, dataOf, type Harness, jsonOf, registerMember, type TestTenant } from '../support/harness.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

let harness: Harness;
let proxy: TcpProxy;
let tenant: TestTenant;
let secret: string;
let workers: Worker[] = [];

beforeAll(async () => {
  proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  harness = await createHarness({ databasePort: proxy.port });
  tenant = await harness.createTenant({ configuration: { rateLimit: { perSecond: 10_000, burst: 10_000 } } });
  const admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users']);
  secret = (
    await dataOf<{ secret: string }>(
      await harness.request(tenant, 'POST', '/v1/event_types', {
        token: admin,
        body: { name: 'VISIT', description: 'x', isPrivate: true },
      }),
    )
  ).secret;
  await registerMember(harness, tenant, admin, 'visitor');
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
  await proxy.close();
});

/** Reports `count` events, accepted and (with no worker running) not registered. */
async function acceptedEvents(count: number): Promise<number[]> {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, n) =>
      harness.request(tenant, 'POST', '/v1/events', {
        token: secret,
        body: { type: 'VISIT', subject: 'visitor', payload: { n, at: Math.random() } },
      }),
    ),
  );
  return Promise.all(responses.map(async (response) => (await jsonOf(response)).data.id as number));
}

const reactions = (id: number, wait: number, who = tenant) =>
  harness.request(who, 'GET', `/v1/events/${id}/reactions?wait=${wait}`);

// Issue 17, medium: "380 GET /v1/events/{id}/reactions?wait=30000 drove about 1,000 PostgreSQL
// transactions a second (82 per request) … Waiters for pending events share one notification …
// not a query loop each; cap the waiters per API key."
describe('held waits for registration', () => {
  it('share one poll: a hundred waits of a second ask PostgreSQL about events a handful of times, not per wait', async () => {
    const ids = await acceptedEvents(100);
    // The shared poll's query (registration-watch.ts): `from event where id = any(…)`.
    const eventQueries = proxy.countSent('from event where');
    const answers = await Promise.all(ids.map((id) => reactions(id, 1000)));
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 202));
    // One poll a tenth of a second over the second waited: about ten, whatever the number of waits.
    expect(eventQueries()).toBeGreaterThan(0);
    expect(eventQueries()).toBeLessThan(30);
  });

  it(`a tenant holds at most ${MAX_WAITS_PER_TENANT} waits in a process: the next is 429, another tenant's is not`, async () => {
    const ids = await acceptedEvents(MAX_WAITS_PER_TENANT + 1);
    const held = ids.slice(0, MAX_WAITS_PER_TENANT).map((id) => reactions(id, 30_000));
    await expect.poll(async () => (await reactions(ids.at(-1)!, 500)).status, { timeout: 10_000 }).toBe(429);
    const other = await harness.createTenant();
    expect((await reactions(ids[0]!, 0, other)).status).toBe(404);

    // Registration answers every held wait, well before its 30 s.
    workers = startWorkers(harness.context, ['events']);
    const answered = await Promise.all(held);
    expect(answered.map((answer) => answer.status)).toEqual(held.map(() => 200));
    expect((await reactions(ids.at(-1)!, 30_000)).status).toBe(200);
  }, 60_000);
});
