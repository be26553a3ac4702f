import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { CRAFTED_NUMBER, LISTED_TIER_CONDITIONS } from '../support/payload-traps.js';
import { createHarness, dataOf, jsonOf, registerMember, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let typedSecret: string;
let openSecret: string;
let workers: Worker[] = [];

const points = (value: string) => ({ operation: 'SUM', arguments: [{ type: 'NUMBER', value }] });

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors', 'admin:events']);
  const createType = async (name: string, schema?: object) =>
    (
      await dataOf<{ secret: string }>(
        await harness.request(tenant, 'POST', '/v1/event_types', {
          token: admin,
          body: { name, description: 'x', isPrivate: true, ...(schema ? { schema } : {}) },
        }),
      )
    ).secret;
  typedSecret = await createType('PURCHASE_MADE', {
    type: 'object',
    required: ['total'],
    properties: { total: { type: 'number' } },
  });
  // No schema: any payload is accepted, and the reactors read whatever it holds.
  openSecret = await createType('ANYTHING_HAPPENED');
  const reactors = [
    {
      name: 'Big spender',
      eventType: 'ANYTHING_HAPPENED',
      conditions: { all: [{ fact: 'payload', path: '$.total', operator: 'greaterThan', value: 10 }] },
      reactions: [{ type: 'POINTS', points: points('100') }],
    },
    {
      name: 'Listed kind',
      eventType: 'ANYTHING_HAPPENED',
      conditions: LISTED_TIER_CONDITIONS,
      reactions: [{ type: 'POINTS', points: points('50') }],
    },
    { name: 'Anything at all', eventType: 'ANYTHING_HAPPENED', reactions: [{ type: 'POINTS', points: points('5') }] },
  ];
  for (const reactor of reactors) {
    const response = await harness.request(tenant, 'POST', '/v1/reactors', { token: admin, body: reactor });
    expect(response.status, await response.clone().text()).toBe(201);
  }
  await registerMember(harness, tenant, admin, 'member-1');
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

/** A payload a schema-less type admits, which its reactors' conditions cannot read as they were written to. */
const craftedPayload = { total: CRAFTED_NUMBER, kind: 'listed', tier: 'gold', acceptedTiers: 5 };

const dryRun = (body: object) => harness.request(tenant, 'POST', '/v1/events/test_reaction', { token: admin, body });

// Issue 31: "POST /v1/events/test_reaction with a payload number sent as {"toString":"x","valueOf":1}
// answers 500 … a dry run validates its payload against the type's schema like a real report."
describe('a payload the reactors cannot read as they expect', () => {
  it("is refused by a dry run as a report is, 400 Malformed payload, when the type's schema says number", async () => {
    const body = { type: 'PURCHASE_MADE', subject: 'member-1', payload: { total: CRAFTED_NUMBER } };
    const reported = await harness.request(tenant, 'POST', '/v1/events', { token: typedSecret, body });
    const tested = await dryRun(body);
    for (const response of [reported, tested]) {
      expect(response.status).toBe(400);
      expect(await jsonOf(response)).toMatchObject({
        data: { name: 'BadRequestError', message: expect.stringContaining('Malformed payload') },
      });
    }
  });

  it('is no number in a dry run on a type without a schema: the conditions reading it do not hold, the other reactors run', async () => {
    const response = await dryRun({ type: 'ANYTHING_HAPPENED', subject: 'member-1', payload: craftedPayload });
    expect(response.status).toBe(200);
    expect(await dataOf(response)).toMatchObject({
      totalPoints: 5,
      activatedReactors: [{ name: 'Anything at all' }],
    });
  });

  it('is registered by the worker as the dry run said, not retried, and the events after it are registered too', async () => {
    workers = startWorkers(harness.context, ['events']);
    const report = async (payload: object) =>
      (
        await dataOf<{ id: number }>(
          await harness.request(tenant, 'POST', '/v1/events', {
            token: openSecret,
            body: { type: 'ANYTHING_HAPPENED', subject: 'member-1', payload },
          }),
        )
      ).id;
    const crafted = await report(craftedPayload);
    const plain = await report({ total: 20, kind: 'listed', tier: 'gold', acceptedTiers: ['silver', 'gold'] });
    const reactionsOf = async (id: number) => {
      const response = await harness.request(tenant, 'GET', `/v1/events/${id}/reactions?wait=20000`);
      expect(response.status).toBe(200);
      return dataOf(response);
    };
    expect(await reactionsOf(crafted)).toMatchObject({ totalPoints: 5 });
    expect(await reactionsOf(plain)).toMatchObject({ totalPoints: 155 });
  });
});
