import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, type Harness, jsonOf, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let intruder: TestTenant;
let typeId: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  intruder = await harness.createTenant();
  const created = await harness.request(tenant, 'POST', '/v1/event_types', {
    token: await harness.adminToken(tenant, ['admin:event_types']),
    body: { name: 'ONLY_MINE', description: 'x', isPrivate: true },
  });
  typeId = (await dataOf<{ id: string }>(created)).id;
});
afterAll(() => harness.close());

// docs/architecture.md#rules-the-code-keeps: the tenant is in every WHERE; another tenant's id answers 404.
describe('tenant isolation', () => {
  it('another tenant reads, changes or rotates nothing of ours: 404 every time', async () => {
    const token = await harness.adminToken(intruder, ['admin:event_types']);
    for (const identifier of [typeId, 'ONLY_MINE']) {
      expect((await harness.request(intruder, 'GET', `/v1/event_types/${identifier}`, { token })).status).toBe(404);
      expect(
        (
          await harness.request(intruder, 'PATCH', `/v1/event_types/${identifier}`, {
            token,
            body: { isActive: false },
          })
        ).status,
      ).toBe(404);
      expect((await harness.request(intruder, 'POST', `/v1/event_types/${identifier}/secret`, { token })).status).toBe(
        404,
      );
    }
    const list = await dataOf<{ name: string }[]>(await harness.request(intruder, 'GET', '/v1/event_types'));
    expect(list.map((type) => type.name)).not.toContain('ONLY_MINE');
    const ours = await dataOf<{ isActive: boolean }>(
      await harness.request(tenant, 'GET', `/v1/event_types/${typeId}`, {
        token: await harness.adminToken(tenant, ['read:event_types']),
      }),
    );
    expect(ours.isActive).toBe(true);
  });

  it('our admin token with their API key is refused', async () => {
    const ourToken = await harness.adminToken(tenant, ['admin:event_types']);
    expect((await harness.request(intruder, 'GET', `/v1/event_types/${typeId}`, { token: ourToken })).status).toBe(401);
  });
});

describe('scopes', () => {
  it('creating, changing and rotating need admin:event_types; read:event_types is not enough', async () => {
    const reader = await harness.adminToken(tenant, ['read:event_types']);
    expect(
      (
        await harness.request(tenant, 'POST', '/v1/event_types', {
          token: reader,
          body: { name: 'NOPE', description: 'x', isPrivate: false },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await harness.request(tenant, 'PATCH', '/v1/event_types/ONLY_MINE', {
          token: reader,
          body: { isActive: false },
        })
      ).status,
    ).toBe(401);
    expect((await harness.request(tenant, 'POST', '/v1/event_types/ONLY_MINE/secret', { token: reader })).status).toBe(
      401,
    );
  });

  it('reading one needs a token with read:event_types; the list needs the API key only', async () => {
    expect((await harness.request(tenant, 'GET', '/v1/event_types/ONLY_MINE')).status).toBe(401);
    expect(
      (
        await harness.request(tenant, 'GET', '/v1/event_types/ONLY_MINE', {
          token: await harness.userToken(tenant, 'someone'),
        })
      ).status,
    ).toBe(401);
    expect((await harness.request(tenant, 'GET', '/v1/event_types')).status).toBe(200);
  });
});

// Issue 17, High: "ReDoS through a tenant's payload schema … on a public type any shopper can send
// it. … The same for profileSchema." A backtracking engine takes about 100 s over these 33
// characters (1.6 s at 27, doubling per character): long enough to fail the test's 30 s, short
// enough that a regression fails the run rather than hanging it (payload-schema.test.ts runs the
// longer case in a process of its own).
describe("a tenant's patterns cannot stall the process", () => {
  const evil = 'a'.repeat(33) + '!';

  it("a shopper's payload against a catastrophic pattern on a public type is 400 Malformed payload", async () => {
    const admin = await harness.adminToken(tenant, ['admin:event_types', 'admin:users']);
    const created = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: {
        name: 'CODE_ENTERED',
        description: 'x',
        isPrivate: false,
        schema: { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } },
      },
    });
    expect(created.status).toBe(201);
    const member = await harness.request(tenant, 'POST', '/v1/users', {
      token: admin,
      body: {
        isRestricted: false,
        authIdentifier: 'shopper',
        profile: { familyName: 'S', givenName: 'S', emailAddress: 's@example.com' },
      },
    });
    expect(member.status).toBe(201);
    const response = await harness.request(tenant, 'POST', '/v1/events', {
      token: await harness.userToken(tenant, 'shopper'),
      body: { type: 'CODE_ENTERED', payload: { code: evil } },
    });
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).message).toMatch(/^Malformed payload/);
  });

  it("a profileSchema pattern against a member's profile is 400 BadRequestError", async () => {
    const strict = await harness.createTenant({
      configuration: {
        profileSchema: { type: 'object', properties: { givenName: { type: 'string', pattern: '^(a+)+$' } } },
      },
    });
    const response = await harness.request(strict, 'POST', '/v1/users', {
      token: await harness.adminToken(strict, ['admin:users']),
      body: { isRestricted: false, profile: { familyName: 'S', givenName: evil, emailAddress: 'e@example.com' } },
    });
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data.name).toBe('BadRequestError');
  });

  it("a stored schema the payload checker no longer runs is the tenant's to change: 422 naming the type, not a fault of the report", async () => {
    const admin = await harness.adminToken(tenant, ['admin:event_types']);
    expect(
      (
        await harness.request(tenant, 'POST', '/v1/event_types', {
          token: admin,
          body: { name: 'OLD_SCHEMA', description: 'x', isPrivate: false },
        })
      ).status,
    ).toBe(201);
    // As stored before patterns ran in linear time: a lookahead.
    await harness.context.orm.em
      .fork()
      .getConnection()
      .execute("update event_type set schema = ? where tenant_id = ? and name = 'OLD_SCHEMA'", [
        JSON.stringify({ type: 'object', properties: { code: { type: 'string', pattern: '^(?=a)a+$' } } }),
        tenant.id,
      ]);
    const response = await harness.request(tenant, 'POST', '/v1/events', {
      token: await harness.userToken(tenant, 'shopper'),
      body: { type: 'OLD_SCHEMA', payload: { code: 'aa' } },
    });
    expect(response.status).toBe(422);
    const body = await jsonOf(response);
    expect(body.data.name).toBe('TenantConfigurationError');
    expect(body.message).toContain('PATCH /v1/event_types/OLD_SCHEMA');
  });

  it('a schema whose pattern needs backtracking is refused when the type is created', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: await harness.adminToken(tenant, ['admin:event_types']),
      body: {
        name: 'LOOKING_AHEAD',
        description: 'x',
        isPrivate: false,
        schema: { type: 'string', pattern: '^(?=a)' },
      },
    });
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data).toMatchObject({ name: 'ValidationError', errors: [{ property: 'schema' }] });
  });
});
