import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTallyClient } from '../../clients/typescript/index.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  workers = startWorkers(harness.context, ['events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

/** The client of clients/typescript, its requests answered by the harness's app rather than a socket. */
function client(token: string) {
  return createTallyClient({
    baseUrl: 'http://tally.test',
    apiKey: tenant.key,
    token,
    fetch: async (request) => harness.app.request(request),
  });
}

// Issue 19: "A typed client ... used by at least one end-to-end test, so integrators do not write HTTP by hand."
describe('the generated TypeScript client', () => {
  it('creates an event type and a reactor, registers a member, reports an event and reads the wallet', async () => {
    const admin = client(
      await harness.adminToken(tenant, ['admin:event_types', 'admin:reactors', 'admin:users', 'read:users']),
    );
    const eventType = await admin.POST('/v1/event_types', {
      body: { name: 'PURCHASE', description: 'A purchase in a shop', isPrivate: false },
    });
    expect(eventType.response.status).toBe(201);
    expect(eventType.data?.data.name).toBe('PURCHASE');

    const reactor = await admin.POST('/v1/reactors', {
      body: {
        name: 'Ten points a euro',
        eventType: 'PURCHASE',
        reactions: [
          {
            type: 'POINTS',
            points: {
              operation: 'MULTIPLY',
              arguments: [
                { type: 'PATH', value: '$.payload.total' },
                { type: 'NUMBER', value: '10' },
              ],
            },
          },
        ],
      },
    });
    expect(reactor.response.status).toBe(201);

    const member = await admin.POST('/v1/users', {
      body: {
        isRestricted: false,
        authIdentifier: 'member-1',
        profile: { givenName: 'Ada', familyName: 'Lovelace', emailAddress: 'ada@example.org' },
      },
    });
    expect(member.data?.data.accountNumber).toBeGreaterThan(0);

    const memberClient = client(await harness.userToken(tenant, 'member-1'));
    const reported = await memberClient.POST('/v1/events', {
      body: { type: 'PURCHASE', payload: { total: 4.2 } },
      params: { header: { 'Idempotency-Key': 'purchase-0001' } },
    });
    expect(reported.response.status).toBe(201);
    const eventId = reported.data!.data.id;

    const reactions = await memberClient.GET('/v1/events/{id}/reactions', {
      params: { path: { id: eventId }, query: { wait: 20_000 } },
    });
    expect(reactions.response.status).toBe(200);
    expect(reactions.data?.data.totalPoints).toBe(42);

    const wallet = await admin.GET('/v1/users/{id}/wallet', { params: { path: { id: 'member-1' } } });
    expect(wallet.data?.data).toEqual({ points: 42, lifetimeEarn: 42, loyaltyCost: 0, tier: null, vouchers: [] });
    const own = await memberClient.GET('/v1/users/me/wallet');
    expect(own.data?.data.points).toBe(42);
  });

  it('answers a refusal as the typed error envelope', async () => {
    const admin = client(await harness.adminToken(tenant, ['admin:event_types']));
    const { data, error, response } = await admin.GET('/v1/event_types', { params: { query: { limit: 5000 } } });
    expect(response.status).toBe(400);
    expect(data).toBeUndefined();
    expect(error?.data.name).toBe('ValidationError');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });
});
