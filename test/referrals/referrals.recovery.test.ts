import { randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverStranded, recoveryDependencies } from '../../shared/recovery/recover-stranded.js';
import { Referral } from '../../shared/referrals/referral.entity.js';
import { hashedSourceUser } from '../../shared/referrals/source-user-hash.js';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import {
  createHarness,
  dataOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import { createCampaign } from './support.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:reactors']);
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'Ten for a friend',
      eventType: 'REFERRAL_COMPLETED',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '10' }] } }],
    },
  });
  workers = startWorkers(harness.context, ['events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const eventsOf = async (eventId: number) =>
  (await queryOne(harness, 'select count(*)::int as n from event where id = ?', [eventId])).n as number;

// Issue 23: "Exactly once per referral, whatever retries happen"; docs/operations.md#durability: "An accepted request is never lost".
describe('a referral whose events a crash left unqueued', () => {
  it('is reported by the recovery sweep, once', async () => {
    const campaign = await createCampaign(harness, tenant, admin);
    const referrer = await registerMember(harness, tenant, admin, 'referrer');
    const referred = await registerMember(harness, tenant, admin, 'referred');
    const code = await dataOf<Json>(
      await harness.request(tenant, 'GET', '/v1/users/referrer/referral_code', { token: admin }),
    );
    // What a registration leaves when its process dies between the commit and the queueing.
    const [registrationEventId, completedEventId] = [
      await harness.context.eventIds.allocate(),
      await harness.context.eventIds.allocate(),
    ];
    const em = harness.context.orm.em.fork();
    em.create(Referral, {
      id: randomUUID(),
      tenant: tenant.id,
      code: code.id,
      campaign: campaign.id,
      referrer: referrer.id,
      referred: referred.id,
      source: 'EMAIL',
      sourceUserHash: hashedSourceUser(harness.context.sourceUserKey, tenant.id, 'lost@example.org'),
      userAgent: null,
      ipAddress: null,
      tranche: 'first friend',
      registrationEventId,
      completedEventId,
    });
    await em.flush();

    const deps = recoveryDependencies(harness.context);
    expect((await recoverStranded(deps)).referralEvents).toBe(0);
    // Counted as orders' are: the events queued again, here REFERRED_REGISTRATION and REFERRAL_COMPLETED.
    expect((await recoverStranded(deps, 0)).referralEvents).toBe(2);
    await recoverStranded(deps, 0);
    for (const eventId of [registrationEventId, completedEventId])
      await harness.request(tenant, 'GET', `/v1/events/${eventId}/reactions?wait=10000`);
    expect([await eventsOf(registrationEventId), await eventsOf(completedEventId)]).toEqual([1, 1]);
    const completed = await queryOne(harness, 'select payload, user_id from event where id = ?', [completedEventId]);
    expect(completed).toEqual({
      payload: { campaignId: campaign.id, referredUserId: referred.id, tranche: 'first friend' },
      user_id: referrer.id,
    });
    // Registered: the sweep finds nothing more, and the referrer was paid once.
    expect((await recoverStranded(deps, 0)).referralEvents).toBe(0);
    const wallet = await harness.request(tenant, 'GET', '/v1/users/referrer/wallet', { token: admin });
    expect((await dataOf<Json>(wallet)).points).toBe(10);
  });
});
