import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeTenant, changeTenantDisabled } from '../../shared/tenant-admin/audited-tenant-changes.js';
import { TenantDirectory } from '../../shared/tenants/tenant-directory.js';
import {
  createHarness,
  jsonOf,
  queryOne,
  USER_TOKEN_ISSUER,
  type Harness,
  type TestTenant,
} from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let other: TestTenant;
let admin: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant({ configuration: { review: { maxAgeDays: 30 }, allowDuplicateContacts: true } });
  other = await harness.createTenant({ configuration: { review: { maxAgeDays: 7 } } });
  admin = await harness.adminToken(tenant, ['admin:tenant'], 'ops@tenant.test');
});
afterAll(() => harness.close());

const patch = (body: unknown, token = admin, to = tenant) =>
  harness.request(to, 'PATCH', '/v1/tenant', { token, body });
const read = async (to = tenant, token = admin) =>
  (await jsonOf(await harness.request(to, 'GET', '/v1/tenant', { token }))).data;

// docs/tenant.md: "GET /v1/tenant and PATCH /v1/tenant (admin:tenant, audited) read and change name, authentication and configuration".
describe('GET and PATCH /v1/tenant', () => {
  it('reads the tenant without its shared key or API key', async () => {
    const response = await harness.request(tenant, 'GET', '/v1/tenant', { token: admin });
    expect(response.status).toBe(200);
    const { data } = await jsonOf(response);
    expect(data).toMatchObject({
      id: tenant.id,
      slug: tenant.slug,
      authentication: { algorithm: 'HS256', issuer: USER_TOKEN_ISSUER },
      configuration: { review: { maxAgeDays: 30 }, allowDuplicateContacts: true },
      disabledAt: null,
    });
    const text = JSON.stringify(data);
    expect(text).not.toContain(tenant.sharedKey);
    expect(text).not.toContain(tenant.key);
  });

  it('changes every key of the configuration, the name and the authentication, and answers the tenant as changed', async () => {
    const configuration = {
      review: {
        minConfidence: 0.8,
        spotCheckRate: 0.1,
        merchants: ['Acme'],
        limits: { perFormat: 2 },
        requireVenue: true,
      },
      rateLimit: { perSecond: 10_000, burst: 20_000 },
      profileSchema: { type: 'object', required: ['attributes'] },
      corsOrigins: ['https://shop.example', 'http://localhost:8080'],
      timezone: 'Europe/London',
    };
    const response = await patch({ name: 'Renamed', configuration });
    expect(response.status, await response.clone().text()).toBe(200);
    const { data } = await jsonOf(response);
    expect(data).toMatchObject({ name: 'Renamed', configuration: { ...configuration, allowDuplicateContacts: true } });
    expect(await read()).toEqual(data);

    const rs256 = { algorithm: 'RS256', issuer: 'https://id.shop.example', jwksUrl: 'https://id.shop.example/jwks' };
    expect((await jsonOf(await patch({ authentication: rs256 }))).data.authentication).toEqual(rs256);
    const hs256 = { algorithm: 'HS256', issuer: USER_TOKEN_ISSUER, sharedKey: tenant.sharedKey };
    const restored = (await jsonOf(await patch({ authentication: hs256 }))).data;
    expect(restored.authentication).toEqual({ algorithm: 'HS256', issuer: USER_TOKEN_ISSUER });
    expect(JSON.stringify(restored)).not.toContain(tenant.sharedKey);
    // The restored shared key verifies user tokens again.
    const user = await harness.request(tenant, 'GET', '/v1/users/me', {
      token: await harness.userToken(tenant, 'nobody'),
    });
    expect(user.status).toBe(404);
  });

  it('merges the configuration key by key: keys not sent stay, a key set to null is removed', async () => {
    await patch({ configuration: { rateLimit: { perSecond: 10_000 }, timezone: 'UTC' } });
    const { data } = await jsonOf(await patch({ configuration: { timezone: null, allowDuplicateContacts: false } }));
    expect(data.configuration.rateLimit).toEqual({ perSecond: 10_000 });
    expect(data.configuration.allowDuplicateContacts).toBe(false);
    expect(data.configuration).not.toHaveProperty('timezone');
    expect(data.configuration.review).toMatchObject({ minConfidence: 0.8 });
  });

  it.each([
    ['configuration.review.minConfidence', { configuration: { review: { minConfidence: 5 } } }],
    ['configuration.review.spotCheckRate', { configuration: { review: { spotCheckRate: -0.1 } } }],
    ['configuration.review.maxAgeDays', { configuration: { review: { maxAgeDays: 0 } } }],
    ['configuration.review.merchants', { configuration: { review: { merchants: 'Acme' } } }],
    ['configuration.review.limits.perMerchant', { configuration: { review: { limits: { perMerchant: 1.5 } } } }],
    ['configuration.review.requireVenue', { configuration: { review: { requireVenue: 'yes' } } }],
    ['configuration.review.maxAge', { configuration: { review: { maxAge: 3 } } }],
    ['configuration.rateLimit.perSecond', { configuration: { rateLimit: { perSecond: '100' } } }],
    ['configuration.rateLimit.perSecond', { configuration: { rateLimit: { burst: 10 } } }],
    ['configuration.rateLimit.burst', { configuration: { rateLimit: { perSecond: 100, burst: 10 } } }],
    ['configuration.allowDuplicateContacts', { configuration: { allowDuplicateContacts: 'true' } }],
    ['configuration.profileSchema', { configuration: { profileSchema: { type: 'nonsense' } } }],
    ['configuration.profileSchema', { configuration: { profileSchema: { $ref: 'https://evil.example/s.json' } } }],
    ['configuration.corsOrigins.0', { configuration: { corsOrigins: ['https://shop.example/path'] } }],
    ['configuration.corsOrigins.0', { configuration: { corsOrigins: ['https://Shop.example'] } }],
    ['configuration.corsOrigins', { configuration: { corsOrigins: 'https://shop.example' } }],
    ['configuration.timezone', { configuration: { timezone: 'Mars/Olympus' } }],
    // Issue 21: "400 ValidationError naming the field for a negative cap, unsorted or duplicate thresholds, an unknown period".
    ['configuration.pointsExpiry.days', { configuration: { pointsExpiry: { days: 365 } } }],
    ['configuration.pointsExpiry.afterDays', { configuration: { pointsExpiry: { afterDays: 0 } } }],
    ['configuration.pointsCaps.earn.max', { configuration: { pointsCaps: { earn: { max: -5, period: 'DAY' } } } }],
    [
      'configuration.pointsCaps.spend.period',
      { configuration: { pointsCaps: { spend: { max: 5, period: 'FORTNIGHT' } } } },
    ],
    ['configuration.tiers', { configuration: { tiers: [] } }],
    [
      'configuration.tiers.1.threshold',
      {
        configuration: {
          tiers: [
            { id: 'gold', name: 'Gold', threshold: 1000 },
            { id: 'silver', name: 'Silver', threshold: 500 },
          ],
        },
      },
    ],
    [
      'configuration.tiers.1.threshold',
      {
        configuration: {
          tiers: [
            { id: 'silver', name: 'Silver', threshold: 500 },
            { id: 'gold', name: 'Gold', threshold: 500 },
          ],
        },
      },
    ],
    [
      'configuration.tiers.1.id',
      {
        configuration: {
          tiers: [
            { id: 'silver', name: 'Silver', threshold: 500 },
            { id: 'silver', name: 'Gold', threshold: 1000 },
          ],
        },
      },
    ],
    ['configuration.tierWindowDays', { configuration: { tierWindowDays: -1 } }],
    [
      'authentication.jwksUrl',
      { authentication: { algorithm: 'HS256', issuer: 'i', sharedKey: 'k', jwksUrl: 'https://x.example/jwks' } },
    ],
    ['authentication.sharedKey', { authentication: { algorithm: 'HS256', issuer: 'i' } }],
    ['authentication.jwksUrl', { authentication: { algorithm: 'RS256', issuer: 'i' } }],
    ['authentication.algorithm', { authentication: { algorithm: 'none', issuer: 'i' } }],
    ['authentication.issuer', { authentication: { algorithm: 'HS256', issuer: 'tally-platform', sharedKey: 'k' } }],
    ['name', { name: '' }],
    ['slug', { slug: 'renamed' }],
  ])('refuses an invalid %s with 400 ValidationError naming it, and changes nothing', async (field, body) => {
    const before = await read();
    const response = await patch(body);
    expect(response.status).toBe(400);
    const answer = await jsonOf(response);
    expect(answer.data.name).toBe('ValidationError');
    expect(answer.data.errors.map((error: { property: string }) => error.property)).toContain(field);
    expect(answer.message).toContain(field);
    expect(await read()).toEqual(before);
  });

  it('refuses a token without admin:tenant (401) and shows another tenant nothing of this one', async () => {
    const reader = await harness.adminToken(tenant, ['admin:users', 'admin:event_types']);
    expect((await harness.request(tenant, 'GET', '/v1/tenant', { token: reader })).status).toBe(401);
    expect((await patch({ name: 'x' }, reader)).status).toBe(401);
    // This tenant's token with the other tenant's key: the token is bound to its tenant.
    expect((await patch({ name: 'x' }, admin, other)).status).toBe(401);
  });

  it('leaves another tenant unaffected', async () => {
    await patch({ configuration: { review: { maxAgeDays: 5 } } });
    const otherAdmin = await harness.adminToken(other, ['admin:tenant']);
    const seen = await read(other, otherAdmin);
    expect(seen).toMatchObject({ id: other.id, name: 'Tenant 2', configuration: { review: { maxAgeDays: 7 } } });
  });

  it('audits each change as tenant.updated with the actor, before and after, and no secret', async () => {
    const response = await patch({ configuration: { spotCheck: null, allowDuplicateContacts: true } });
    expect(response.status).toBe(200);
    const { job } = await queryOne(
      harness,
      "select job from audit_outbox where tenant_id = ? and job->>'action' = 'tenant.updated' order by created_at desc limit 1",
      [tenant.id],
    );
    expect(job).toMatchObject({
      tenantId: tenant.id,
      actor: { subject: 'ops@tenant.test', scopes: ['admin:tenant'] },
      resourceType: 'tenant',
      resourceId: tenant.id,
      before: { configuration: { allowDuplicateContacts: false } },
      after: { configuration: { allowDuplicateContacts: true } },
    });
    expect(JSON.stringify(job)).not.toContain(tenant.sharedKey);
    expect(await harness.context.queues.audit.getJob(job.id)).toBeDefined();
  });
});

describe('a disabled tenant', () => {
  it("has its API key refused with 403 until it is enabled again; the change is this process's at once", async () => {
    const disabled = await harness.createTenant();
    expect(
      (
        await harness.request(disabled, 'GET', '/v1/event_types', {
          token: await harness.adminToken(disabled, ['read:event_types']),
        })
      ).status,
    ).toBe(200);
    const actor = { subject: 'cli', scopes: [] };
    const view = await changeTenantDisabled(
      harness.context,
      harness.context.orm.em.fork(),
      actor,
      { id: disabled.id },
      true,
    );
    expect(view.disabledAt).toEqual(expect.any(String));
    const refused = await harness.request(disabled, 'GET', '/v1/event_types', {
      token: await harness.adminToken(disabled, ['read:event_types']),
    });
    expect(refused.status).toBe(403);
    expect((await jsonOf(refused)).message).toBe('This tenant is disabled');
    await changeTenantDisabled(harness.context, harness.context.orm.em.fork(), actor, { id: disabled.id }, false);
    const again = await harness.request(disabled, 'GET', '/v1/event_types', {
      token: await harness.adminToken(disabled, ['read:event_types']),
    });
    expect(again.status).toBe(200);
  });
});

// docs/tenant.md#when-a-change-applies: "The process that made a change drops its copy at once; every other process ... applies within CACHE_TTL_MS."
describe('when a change applies', () => {
  it('at once in the process that made it, within the cache lifetime in another', async () => {
    const ttlMs = 5000;
    const changed = await harness.createTenant({ configuration: { timezone: 'UTC' } });
    // Two processes' key caches over one database; only Date is faked, so PostgreSQL's I/O runs as ever.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const here = new TenantDirectory(harness.context.orm, ttlMs);
      const elsewhere = new TenantDirectory(harness.context.orm, ttlMs);
      expect((await here.findByApiKey(changed.key))?.configuration).toEqual({ timezone: 'UTC' });
      expect((await elsewhere.findByApiKey(changed.key))?.configuration).toEqual({ timezone: 'UTC' });
      await changeTenant(
        { ...harness.context, tenants: here },
        harness.context.orm.em.fork(),
        { subject: 'test', scopes: [] },
        { id: changed.id },
        { configuration: { timezone: 'Europe/Paris' } },
      );
      expect((await here.findByApiKey(changed.key))?.configuration).toEqual({ timezone: 'Europe/Paris' });
      expect((await elsewhere.findByApiKey(changed.key))?.configuration).toEqual({ timezone: 'UTC' });
      vi.advanceTimersByTime(ttlMs + 1);
      expect((await elsewhere.findByApiKey(changed.key))?.configuration).toEqual({ timezone: 'Europe/Paris' });
    } finally {
      vi.useRealTimers();
    }
  });
});
