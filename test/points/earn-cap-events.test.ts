import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import { createHarness, dataOf, queryOne, registerMember, type Harness, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let secret: string;
let workers: Worker[] = [];

interface Reactions {
  totalPoints: number;
  reactions: { type: string; amount?: number; requestedAmount?: number }[];
}

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant({ configuration: { pointsCaps: { earn: { max: 100, period: 'DAY' } } } });
  const admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users', 'admin:reactors']);
  const created = await harness.request(tenant, 'POST', '/v1/event_types', {
    token: admin,
    body: { name: 'VISIT', description: 'a visit to the shop', isPrivate: true },
  });
  secret = (await dataOf<{ secret: string }>(created)).secret;
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'Seven a visit',
      eventType: 'VISIT',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '7' }] } }],
    },
  });
  await registerMember(harness, tenant, admin, 'regular');
  workers = startWorkers(harness.context, ['events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

// Issue 21: "Earn caps cut an earning at what is left of the period's cap (the ledger entry records the amount
// asked and the amount granted, and the reaction result says so) … Concurrent earnings against one cap never
// exceed it."
describe('the earn cap, through reported events', () => {
  it('grants 50 concurrent events of 7 points exactly the cap of 100, and each cut reaction says what it asked', async () => {
    const reported = await Promise.all(
      Array.from({ length: 50 }, async (_, visit) => {
        // A payload of its own each: the same payload within 60 s would be a duplicate.
        const response = await harness.request(tenant, 'POST', '/v1/events', {
          token: secret,
          body: { type: 'VISIT', subject: 'regular', payload: { visit } },
        });
        expect(response.status).toBe(201);
        return (await dataOf<{ id: number }>(response)).id;
      }),
    );
    const results = await Promise.all(
      reported.map(async (id) => {
        const response = await harness.request(tenant, 'GET', `/v1/events/${id}/reactions?wait=30000`, {
          token: secret,
        });
        expect(response.status).toBe(200);
        return dataOf<Reactions>(response);
      }),
    );
    expect(results.reduce((sum, result) => sum + result.totalPoints, 0)).toBe(100);
    const points = results.flatMap((result) => result.reactions.filter((reaction) => reaction.type === 'POINTS'));
    expect(points).toHaveLength(50);
    // 14 whole earnings of 7 make 98; the 15th is cut to 2, and the 35 after it to 0.
    expect(points.filter((reaction) => reaction.requestedAmount === undefined)).toHaveLength(14);
    expect(
      points
        .filter((reaction) => reaction.requestedAmount === 7)
        .map((reaction) => reaction.amount)
        .sort(),
    ).toEqual([...Array<number>(35).fill(0), 2]);
    expect(
      await queryOne(
        harness,
        `select w.points::int, count(le.*) filter (where le.requested_points = 7)::int as cut
           from wallet w join ledger_entry le on le.user_id = w.user_id where w.tenant_id = ? group by w.points`,
        [tenant.id],
      ),
    ).toEqual({ points: 100, cut: 36 });
  });
});
