import { hashedSourceUser } from '../../shared/referrals/source-user-hash.js';
import { dataOf, queryOne, type Harness, type Json, type TestTenant } from '../support/harness.js';

/** A campaign body as decisions §13 describes it, with the fields a test changes. */
export function campaignBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Bring a friend',
    linkConfig: {
      title: 'Join me',
      description: 'Sign up with my code',
      desktopUrl: 'https://coffee.example/join?lang=en',
    },
    isActive: true,
    referralCodeType: 'CODE',
    tranches: [
      { referrals: 1, name: 'first friend' },
      { referrals: 3, name: 'three friends' },
    ],
    ...overrides,
  };
}

export async function createCampaign(
  harness: Harness,
  tenant: TestTenant,
  admin: string,
  overrides: Record<string, unknown> = {},
): Promise<Json> {
  const response = await harness.request(tenant, 'POST', '/v1/referral_campaigns', {
    token: admin,
    body: campaignBody(overrides),
  });
  if (response.status !== 201) throw new Error(`campaign answered ${response.status}: ${await response.text()}`);
  return dataOf(response);
}

/** A registration body with every referral field rewards-interface documents. */
export function referredRegistration(authIdentifier: string, inviteCode: string, sourceUserId = authIdentifier) {
  return {
    isRestricted: false,
    authIdentifier,
    profile: { givenName: authIdentifier, familyName: 'R', emailAddress: `${authIdentifier}@example.org` },
    referralInviteCode: inviteCode,
    referralActivity: {
      source: 'EMAIL',
      sourceUserId,
      activityType: 'REGISTER',
      userAgent: 'WEB',
      ipAddress: '203.0.113.7',
    },
  };
}

/** The referral stored for a referred member, with its events' ids. */
export function referralOf(harness: Harness, memberId: string): Promise<Json> {
  return queryOne(
    harness,
    'select id, tranche, registration_event_id::int as "registrationEventId", completed_event_id::int as "completedEventId", ip_address as "ipAddress", user_agent as "userAgent", source, source_user_hash as "sourceUserHash" from referral where referred_id = ?',
    [memberId],
  );
}

/** Waits for an event's registration (the positive signal) and answers what it earned. */
export async function registered(harness: Harness, tenant: TestTenant, eventId: number): Promise<Json> {
  const response = await harness.request(tenant, 'GET', `/v1/events/${eventId}/reactions?wait=10000`);
  if (response.status !== 200) throw new Error(`event ${eventId} not registered: ${response.status}`);
  return dataOf(response);
}

/** A sourceUserId as referrals and clicks keep it: its keyed hash, never the value. */
export function storedSourceUser(harness: Harness, tenant: TestTenant, sourceUserId: string): string {
  return hashedSourceUser(harness.context.sourceUserKey, tenant.id, sourceUserId);
}
