import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import { campaignBody, createCampaign, referralOf, referredRegistration, registered } from './support.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let referrer: Json;
let inviteCode: string;
let workers: Worker[] = [];

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:events']);
  referrer = await registerMember(harness, tenant, admin, 'popular');
  await createCampaign(harness, tenant, admin, { tranches: [{ referrals: 20, name: 'twenty' }] });
  inviteCode = (
    await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/users/popular/referral_code', { token: admin }))
  ).inviteCode;
  workers = startWorkers(harness.context, ['events']);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const register = (authIdentifier: string, sourceUserId: string) =>
  harness.request(tenant, 'POST', '/v1/users', {
    token: admin,
    body: referredRegistration(authIdentifier, inviteCode, sourceUserId),
  });

// issue 23, Done when: "20 concurrent registrations with one code and distinct sourceUserId all succeed with one
// REFERRAL_COMPLETED each; 5 concurrent registrations with the same source+sourceUserId give exactly one success and four 409".
describe('concurrent referred registrations', () => {
  it('registers 20 at once with one code, each reporting one REFERRAL_COMPLETED, the twentieth reaching the tranche', async () => {
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => register(`friend-${i}`, `user-${i}`)));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const friends = await Promise.all(responses.map((response) => dataOf<Json>(response)));
    const referrals = await Promise.all(friends.map((friend) => referralOf(harness, friend.id)));
    for (const referral of referrals) await registered(harness, tenant, referral.completedEventId);
    expect(referrals.filter((referral) => referral.tranche === 'twenty')).toHaveLength(1);

    const listed = await harness.request(
      tenant,
      'GET',
      `/v1/events?filter=type.name:(eq:'REFERRAL_COMPLETED')&limit=100`,
      { token: admin },
    );
    const events = await dataOf<Json[]>(listed);
    expect(events).toHaveLength(20);
    expect(events.every((event) => event.subject.id === referrer.id)).toBe(true);
    expect(new Set(events.map((event) => event.payload.referredUserId))).toEqual(
      new Set(friends.map((friend) => friend.id)),
    );
    expect(events.filter((event) => event.payload.tranche === 'twenty')).toHaveLength(1);
  });

  it('lets one of 5 concurrent sign-ups of the same source and sourceUserId through, and answers the others 409', async () => {
    const responses = await Promise.all(Array.from({ length: 5 }, (_, i) => register(`same-${i}`, 'same-person')));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
  });
});

// docs/referrals.md: "Creating or activating another while one is active is `409 ConflictError` naming the active one
// (`data.activeCampaignId`) ... Two activations racing are settled by the database: one of them is 409."
describe('concurrent activations', () => {
  it('activates one of several campaigns at once, and answers each of the others 409 naming it', async () => {
    // A tenant of its own, with no campaign active yet.
    const racing = await harness.createTenant();
    const racingAdmin = await harness.adminToken(racing, ['admin:users']);
    const candidates = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createCampaign(harness, racing, racingAdmin, { name: `Race ${i}`, isActive: false }),
      ),
    );
    const responses = await Promise.all([
      ...candidates.map((campaign) =>
        harness.request(racing, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
          token: racingAdmin,
          body: { isActive: true },
        }),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        harness.request(racing, 'POST', '/v1/referral_campaigns', {
          token: racingAdmin,
          body: campaignBody({ name: `Racing creation ${i}` }),
        }),
      ),
    ]);
    const winners = responses.filter((response) => response.status === 200 || response.status === 201);
    expect(winners).toHaveLength(1);
    const winner = await dataOf<Json>(winners[0]!);
    for (const response of responses.filter((answer) => answer !== winners[0])) {
      expect(response.status).toBe(409);
      expect((await jsonOf(response)).data).toMatchObject({ name: 'ConflictError', activeCampaignId: winner.id });
    }
  });
});
