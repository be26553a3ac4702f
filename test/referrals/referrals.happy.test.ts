import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkers, startWorkers } from '../../workers/start-workers.js';
import {
  createHarness,
  dataOf,
  jsonOf,
  queryOne,
  registerMember,
  type Harness,
  type Json,
  type TestTenant,
} from '../support/harness.js';
import {
  campaignBody,
  createCampaign,
  referralOf,
  referredRegistration,
  registered,
  storedSourceUser,
} from './support.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let workers: Worker[] = [];
let referrer: Json;
let campaign: Json;
let code: Json;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:users', 'admin:reactors', 'admin:events']);
  referrer = await registerMember(harness, tenant, admin, 'referrer');
  // decisions §13: "a tenant's reactors grant points or vouchers to the referrer".
  await harness.request(tenant, 'POST', '/v1/reactors', {
    token: admin,
    body: {
      name: 'Fifty for a friend',
      eventType: 'REFERRAL_COMPLETED',
      reactions: [{ type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '50' }] } }],
    },
  });
  workers = startWorkers(harness.context, ['events']);
  campaign = await createCampaign(harness, tenant, admin);
});
afterAll(async () => {
  await closeWorkers(workers);
  await harness.close();
});

const event = async (id: number) =>
  dataOf<Json>(await harness.request(tenant, 'GET', `/v1/events/${id}`, { token: admin }));

// decisions §13: "POST/GET/PATCH /v1/referral_campaigns (admin:users) with the fields of the referral code record's campaign; tranches: [{referrals, name}]".
describe('referral campaigns', () => {
  it('creates, reads, lists and changes a campaign with the fields of the code record', async () => {
    expect(campaign).toEqual({
      id: expect.any(String),
      name: 'Bring a friend',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      linkConfig: {
        title: 'Join me',
        description: 'Sign up with my code',
        desktopUrl: 'https://coffee.example/join?lang=en',
        imageUrl: null,
        iosUrl: null,
        androidUrl: null,
      },
      isActive: true,
      tranches: [
        { referrals: 1, name: 'first friend' },
        { referrals: 3, name: 'three friends' },
      ],
      referralCodeType: 'CODE',
    });
    const read = await harness.request(tenant, 'GET', `/v1/referral_campaigns/${campaign.id}`, { token: admin });
    expect(await dataOf(read)).toEqual(campaign);
    const listed = await harness.request(tenant, 'GET', '/v1/referral_campaigns?filter=isActive:(eq:!t)', {
      token: admin,
    });
    expect(listed.headers.get('Content-Range')).toBe('referral_campaign 0-0/1');
    expect(await dataOf(listed)).toEqual([campaign]);
    const renamed = await harness.request(tenant, 'PATCH', `/v1/referral_campaigns/${campaign.id}`, {
      token: admin,
      body: { name: 'Bring friends', linkConfig: { ...campaign.linkConfig, imageUrl: 'https://coffee.example/i.png' } },
    });
    expect(await dataOf(renamed)).toMatchObject({
      name: 'Bring friends',
      linkConfig: { imageUrl: 'https://coffee.example/i.png' },
    });
    // docs/referrals.md: "Creations and changes are in the audit log as referral_campaign.created and referral_campaign.updated".
    for (const action of ['referral_campaign.created', 'referral_campaign.updated']) {
      const { job } = await queryOne(
        harness,
        "select job from audit_outbox where tenant_id = ? and job->>'action' = ? and job->>'resourceId' = ?",
        [tenant.id, action, campaign.id],
      );
      expect(job.actor.subject).toBe('test-admin');
    }
  });

  it('answers the first response again for a repeated Idempotency-Key', async () => {
    const send = () =>
      harness.request(tenant, 'POST', '/v1/referral_campaigns', {
        token: admin,
        headers: { 'Idempotency-Key': 'campaign-once' },
        body: campaignBody({ isActive: false, name: 'Once' }),
      });
    const first = await dataOf<Json>(await send());
    const again = await send();
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await dataOf<Json>(again)).id).toBe(first.id);
  });
});

// rewards-interface "Referral code record": id, createdAt, updatedAt, inviteCode, inviteLink, campaign, referrer.
describe('invite codes', () => {
  it('gives the member its code for the active campaign, created on first read, the same on the next', async () => {
    const token = await harness.userToken(tenant, 'referrer');
    const first = await harness.request(tenant, 'GET', '/v1/users/me/referral_code', { token });
    expect(first.status).toBe(200);
    code = await dataOf<Json>(first);
    expect(code).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      inviteCode: expect.stringMatching(/^[2-9A-HJKMNP-Z]{8}$/),
      inviteLink: null,
      campaign: expect.objectContaining({ id: campaign.id, referralCodeType: 'CODE' }),
      referrer: { id: referrer.id },
    });
    const byAdmin = await harness.request(tenant, 'GET', `/v1/users/${referrer.accountNumber}/referral_code`, {
      token: await harness.adminToken(tenant, ['read:users']),
    });
    expect(await dataOf(byAdmin)).toEqual(code);
  });
});

// docs/events.md#system-event-types: REFERRAL_COMPLETED "subject the referrer; payload {campaignId, referredUserId, tranche}",
// REFERRED_REGISTRATION "subject the new member; payload {campaignId, referrerId}".
describe('referred registrations', () => {
  it('registers with a POST /users body carrying every documented field, reports both events, and the reactor pays the referrer', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: {
        isRestricted: false,
        authIdentifier: 'friend-1',
        externalIdentifier: 'crm-1',
        profile: { givenName: 'Grace', familyName: 'Hopper', emailAddress: 'grace@example.org' },
        linkedVenues: [],
        referralInviteCode: code.inviteCode,
        referralActivity: {
          source: 'EMAIL',
          sourceUserId: 'grace@example.org',
          activityType: 'REGISTER',
          userAgent: 'IOS',
          ipAddress: '2001:db8::7',
        },
      },
    });
    expect(response.status).toBe(201);
    const friend = await dataOf<Json>(response);
    // rewards-interface "User": referralCodeUsedForRegistration is the code record with its campaign and referrer.
    expect(friend.referralCodeUsedForRegistration).toMatchObject({
      id: code.id,
      inviteCode: code.inviteCode,
      campaign: { id: campaign.id },
      referrer: { id: referrer.id },
    });
    const referral = await referralOf(harness, friend.id);
    expect(await registered(harness, tenant, referral.completedEventId)).toMatchObject({ totalPoints: 50 });
    expect(await event(referral.completedEventId)).toMatchObject({
      type: { name: 'REFERRAL_COMPLETED' },
      subject: { id: referrer.id },
      payload: { campaignId: campaign.id, referredUserId: friend.id, tranche: 'first friend' },
    });
    await registered(harness, tenant, referral.registrationEventId);
    expect(await event(referral.registrationEventId)).toMatchObject({
      type: { name: 'REFERRED_REGISTRATION' },
      subject: { id: friend.id },
      payload: { campaignId: campaign.id, referrerId: referrer.id },
    });
    const wallet = await harness.request(tenant, 'GET', '/v1/users/referrer/wallet', { token: admin });
    expect((await dataOf<Json>(wallet)).points).toBe(50);
    // The member view shows it on later reads too.
    const read = await harness.request(tenant, 'GET', '/v1/users/friend-1', { token: admin });
    expect((await dataOf<Json>(read)).referralCodeUsedForRegistration.id).toBe(code.id);
  });

  it('omits tranche from the payload when the referral reached none, and names the next tranche it reaches', async () => {
    const second = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        body: referredRegistration('friend-2', code.inviteCode),
      }),
    );
    const untranched = await referralOf(harness, second.id);
    await registered(harness, tenant, untranched.completedEventId);
    const payload = (await event(untranched.completedEventId)).payload;
    expect(payload).toEqual({ campaignId: campaign.id, referredUserId: second.id });
    const third = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        body: referredRegistration('friend-3', code.inviteCode),
      }),
    );
    expect((await referralOf(harness, third.id)).tranche).toBe('three friends');
  });

  it('is not reported again when the registration is replayed with the same Idempotency-Key', async () => {
    const send = () =>
      harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        headers: { 'Idempotency-Key': 'friend-4' },
        body: referredRegistration('friend-4', code.inviteCode),
      });
    const first = await send();
    expect(first.status).toBe(201);
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    const friend = await dataOf<Json>(first);
    await registered(harness, tenant, (await referralOf(harness, friend.id)).completedEventId);
    const events = await harness.request(
      tenant,
      'GET',
      `/v1/events?filter=type.name:(eq:'REFERRAL_COMPLETED')&limit=100`,
      { token: admin },
    );
    const forFriend = (await dataOf<Json[]>(events)).filter((e) => e.payload.referredUserId === friend.id);
    expect(forFriend).toHaveLength(1);
  });
});

// decisions §13: "POST /v1/referral_activities (API key alone) {inviteCode, activityType: 'CLICK', source, sourceUserId, userAgent?}: 201";
// "GET /v1/referral_campaigns/{id}/stats: {clicks, registrations, completedTranches}".
describe('clicks and statistics', () => {
  it('records clicks with the API key alone and counts them with the registrations and tranches', async () => {
    for (const sourceUserId of ['a', 'b']) {
      const click = await harness.request(tenant, 'POST', '/v1/referral_activities', {
        body: { inviteCode: code.inviteCode, activityType: 'CLICK', source: 'TWITTER', sourceUserId },
      });
      expect(click.status).toBe(201);
      expect(await dataOf(click)).toMatchObject({ inviteCode: code.inviteCode, source: 'TWITTER', userAgent: null });
    }
    const stats = await harness.request(tenant, 'GET', `/v1/referral_campaigns/${campaign.id}/stats`, {
      token: admin,
    });
    expect(await dataOf(stats)).toEqual({ clicks: 2, registrations: 4, completedTranches: 2 });
  });
});

// decisions §7: "DELETE /users/{id} erases the profile"; the referral's device details go with it.
// Issue 31: "A click record and a referral keep sourceUserId (often an email address) after erasure: store a keyed hash instead."
describe('erasure', () => {
  it("nulls the referral's ipAddress and userAgent of an erased referred member; its source and hashed sourceUserId stay", async () => {
    const friend = await dataOf<Json>(await harness.request(tenant, 'GET', '/v1/users/friend-1', { token: admin }));
    expect(await referralOf(harness, friend.id)).toMatchObject({ ipAddress: '2001:db8::7', userAgent: 'IOS' });
    const erased = await harness.request(tenant, 'DELETE', '/v1/users/friend-1', { token: admin });
    expect(await jsonOf(erased)).toMatchObject({ data: { affected: 1 } });
    expect(await referralOf(harness, friend.id)).toMatchObject({
      ipAddress: null,
      userAgent: null,
      source: 'EMAIL',
      sourceUserHash: storedSourceUser(harness, tenant, 'grace@example.org'),
    });
  });

  // docs/referrals.md#who-is-kept: "neither a referral nor a click keeps a sourceUserId: each keeps a keyed hash of it".
  it("leaves no referral or click holding an erased member's email address", async () => {
    const clicked = await harness.request(tenant, 'POST', '/v1/referral_activities', {
      body: {
        inviteCode: code.inviteCode,
        activityType: 'CLICK',
        source: 'EMAIL',
        sourceUserId: 'leaving@example.com',
      },
    });
    expect(clicked.status).toBe(201);
    expect(await dataOf(clicked)).not.toHaveProperty('sourceUserId');
    const leaving = await dataOf<Json>(
      await harness.request(tenant, 'POST', '/v1/users', {
        token: admin,
        body: {
          ...referredRegistration('leaving', code.inviteCode, 'leaving@example.com'),
          profile: { familyName: 'L', givenName: 'Leaving', emailAddress: 'leaving@example.com' },
        },
      }),
    );
    const erased = await harness.request(tenant, 'DELETE', `/v1/users/${leaving.id}`, { token: admin });
    expect(await jsonOf(erased)).toMatchObject({ data: { affected: 1 } });
    const holding = await queryOne(
      harness,
      `select (select count(*) from referral_activity r where tenant_id = ? and row_to_json(r)::text ilike '%leaving@example.com%')::int as clicks,
              (select count(*) from referral r where tenant_id = ? and row_to_json(r)::text ilike '%leaving@example.com%')::int as referrals`,
      [tenant.id, tenant.id],
    );
    expect(holding).toEqual({ clicks: 0, referrals: 0 });
  });
});
