import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, registerMember, type Harness, type Json, type TestTenant } from '../support/harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

interface World {
  tenant: TestTenant;
  admin: string;
  venueId: string;
  consentTypeId: string;
  referrer: Json;
  inviteCode: string;
}

/** What the body refers to: a venue, a consent type, and a referrer's invite code in an active campaign. */
async function world(): Promise<World> {
  const tenant = await harness.createTenant();
  const admin = await harness.adminToken(tenant, ['admin:users', 'admin:rules']);
  const post = async (path: string, body: Json) => {
    const response = await harness.request(tenant, 'POST', path, { token: admin, body });
    expect(response.status, path).toBe(201);
    return dataOf<Json>(response);
  };
  // Registered before the required consent type exists, which every later registration must give.
  const referrer = await registerMember(harness, tenant, admin, 'alice');
  const venue = await post('/v1/venues', { name: 'High Street', identifiers: ['STORE-1'] });
  const consentType = await post('/v1/consent_types', {
    name: 'Terms',
    required: true,
    defaultLocale: 'en',
    descriptions: { en: 'I accept the terms.', 'en-GB': 'I accept the terms and conditions.' },
  });
  await post('/v1/referral_campaigns', {
    name: 'Bring a friend',
    isActive: true,
    referralCodeType: 'CODE',
    linkConfig: { title: 'Join me', description: 'Sign up with my code', desktopUrl: 'https://shop.example/join' },
    tranches: [{ referrals: 1, name: 'first friend' }],
  });
  const code = await harness.request(tenant, 'GET', '/v1/users/alice/referral_code', { token: admin });
  const { inviteCode } = await dataOf<{ inviteCode: string }>(code);
  return { tenant, admin, venueId: venue.id, consentTypeId: consentType.id, referrer, inviteCode };
}

// rewards-interface, "POST /users?locale=<locale>": the body table (isRestricted, profile,
// authIdentifier, externalIdentifier, linkedVenues, consentsDefinition, referralInviteCode,
// referralActivity), the profile fields table, and referralActivity's fields: "source (enum EMAIL,
// FACEBOOK, TWITTER, LINKEDIN, OTHER; required), sourceUserId (string; required), activityType
// (enum REGISTER; required ...), userAgent (enum IOS, ANDROID, WEB, UNKNOWN; optional), ipAddress
// (string, optional)". Issue 23: "a POST /users body copied from the interface document with all
// documented fields".
describe('POST /v1/users with every field the interface document lists', () => {
  it('registers the member with its profile, venues, consents and the referral, and shows them all', async () => {
    const { tenant, admin, venueId, consentTypeId, referrer, inviteCode } = await world();
    const profile = {
      familyName: 'Lovelace',
      givenName: 'Ada',
      emailAddress: 'ada@example.org',
      telephoneNumber: '+44 20 7946 0000',
      gender: 'FEMALE',
      birthdate: '1990-12-10',
      streetAddress: '12 St James Square',
      city: 'London',
      postcode: 'SW1Y 4JH',
      region: 'Greater London',
      country: 'GB',
      pictureUrl: 'https://images.example/ada.png',
      attributes: { favouriteDrink: 'flat white' },
    };
    const body = {
      isRestricted: false,
      profile,
      authIdentifier: 'ada',
      externalIdentifier: 'crm-0042',
      linkedVenues: [{ id: venueId }],
      consentsDefinition: [{ type: { id: consentTypeId }, checked: true }],
      referralInviteCode: inviteCode,
      referralActivity: {
        source: 'EMAIL',
        sourceUserId: 'ada@example.org',
        activityType: 'REGISTER',
        userAgent: 'IOS',
        ipAddress: '203.0.113.9',
      },
    };

    const response = await harness.request(tenant, 'POST', '/v1/users?locale=en-GB', { token: admin, body });

    expect(response.status).toBe(201);
    const member = await dataOf<Json>(response);
    expect(member).toMatchObject({
      accountNumber: 2,
      authIdentifier: 'ada',
      externalIdentifier: 'crm-0042',
      isRestricted: false,
      profile,
      flags: { genderProvided: true },
      linkedVenues: [{ id: venueId }],
      consents: [
        {
          type: { id: consentTypeId, name: 'Terms' },
          version: 1,
          locale: 'en-GB',
          requestedLocale: 'en-GB',
          description: 'I accept the terms and conditions.',
          checked: true,
        },
      ],
      // rewards-interface, "Referral code record": id, createdAt, updatedAt, inviteCode, inviteLink,
      // campaign, referrer.
      referralCodeUsedForRegistration: {
        inviteCode,
        inviteLink: null,
        campaign: {
          name: 'Bring a friend',
          isActive: true,
          referralCodeType: 'CODE',
          linkConfig: expect.objectContaining({ desktopUrl: 'https://shop.example/join' }),
          tranches: [{ referrals: 1, name: 'first friend' }],
        },
        referrer: { id: referrer.id },
      },
    });
    expect(Object.keys(member.referralCodeUsedForRegistration).sort()).toEqual(
      ['campaign', 'createdAt', 'id', 'inviteCode', 'inviteLink', 'referrer', 'updatedAt'].sort(),
    );
    const read = await harness.request(tenant, 'GET', `/v1/users/${member.id}`, { token: admin });
    expect(await dataOf(read)).toEqual(member);
  });
});
