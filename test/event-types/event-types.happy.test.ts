import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../shared/platform/secrets/secret-token.js';
import { createHarness, dataOf, type Harness, type TestTenant, queryOne } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types']);
});
afterAll(() => harness.close());

const purchaseSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { total: { type: 'number' }, storeId: { type: 'string' } },
  required: ['total'],
};

describe('POST /v1/event_types', () => {
  // docs/events.md#event-types: "a private type's secret is in this response only"
  it('creates a private type and shows its secret once, storing only its hash', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: { name: 'PURCHASE_MADE', description: 'A purchase at the till', isPrivate: true, schema: purchaseSchema },
    });
    expect(response.status).toBe(201);
    const created = await dataOf<Record<string, unknown>>(response);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'PURCHASE_MADE',
      description: 'A purchase at the till',
      isPrivate: true,
      schema: purchaseSchema,
      omitFromUserActivity: false,
      isActive: true,
      secret: expect.stringMatching(/^ets_/),
    });
    const row = await queryOne(harness, 'select secret_hash from event_type where id = ?', [created.id]);
    expect(row.secret_hash).toBe(hashSecret(created.secret as string));

    const read = await harness.request(tenant, 'GET', `/v1/event_types/${created.id}`, { token: admin });
    expect(await dataOf(read)).not.toHaveProperty('secret');
  });

  it('creates a public type with no secret and accepts a 2020-12 schema', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/event_types', {
      token: admin,
      body: {
        name: 'SHOP_VISITED',
        description: 'Checked in at a shop',
        isPrivate: false,
        omitFromUserActivity: true,
        schema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { visit: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
        },
      },
    });
    expect(response.status).toBe(201);
    const created = await dataOf(response);
    expect(created).not.toHaveProperty('secret');
    expect(created).toMatchObject({ isPrivate: false, omitFromUserActivity: true });
  });
});

// decisions §5: "Every tenant has the private system types ORDER_PLACED and RECEIPT_REVIEWED";
// §13: "Every tenant has the private system types REFERRAL_COMPLETED ... and REFERRED_REGISTRATION".
describe('system event types', () => {
  it('a new tenant has ORDER_PLACED, RECEIPT_REVIEWED, REFERRAL_COMPLETED and REFERRED_REGISTRATION, private', async () => {
    const fresh = await harness.createTenant();
    const response = await harness.request(fresh, 'GET', '/v1/event_types?sort=name&order=ASC');
    const types = await dataOf<{ name: string; isPrivate: boolean }[]>(response);
    expect(types.map((type) => [type.name, type.isPrivate])).toEqual([
      ['ORDER_PLACED', true],
      ['RECEIPT_REVIEWED', true],
      ['REFERRAL_COMPLETED', true],
      ['REFERRED_REGISTRATION', true],
    ]);
  });
});

describe('GET /v1/event_types and /v1/event_types/{identifier}', () => {
  // docs/events.md#event-types: "GET /event_types needs the API key only and never shows secrets."
  it('lists with the API key only, never with secrets, with Content-Range', async () => {
    const response = await harness.request(tenant, 'GET', '/v1/event_types?limit=2&sort=name&order=ASC');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-range')).toBe('event_type 0-1/6');
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(JSON.parse(text).data.map((type: { name: string }) => type.name)).toEqual(['ORDER_PLACED', 'PURCHASE_MADE']);
  });

  it('filters with O-Rison', async () => {
    const filter = encodeURIComponent("isPrivate:(eq:!t),name:(like:'%ORDER%')");
    const response = await harness.request(tenant, 'GET', `/v1/event_types?filter=${filter}`);
    expect((await dataOf<{ name: string }[]>(response)).map((type) => type.name)).toEqual(['ORDER_PLACED']);
  });

  // docs/events.md#event-types: "identifier is the event type uuid or its name. Admin token with scope read:event_types."
  it('reads one by uuid or by name with read:event_types', async () => {
    const reader = await harness.adminToken(tenant, ['read:event_types']);
    const byName = await dataOf<{ id: string }>(
      await harness.request(tenant, 'GET', '/v1/event_types/PURCHASE_MADE', { token: reader }),
    );
    const byId = await dataOf<{ name: string }>(
      await harness.request(tenant, 'GET', `/v1/event_types/${byName.id}`, { token: reader }),
    );
    expect(byId.name).toBe('PURCHASE_MADE');
  });
});

describe('PATCH /v1/event_types/{identifier}', () => {
  it('changes description, schema, isActive and omitFromUserActivity', async () => {
    const response = await harness.request(tenant, 'PATCH', '/v1/event_types/PURCHASE_MADE', {
      token: admin,
      body: { description: 'Any purchase', isActive: false, omitFromUserActivity: true, schema: null },
    });
    expect(response.status).toBe(200);
    const changed = await dataOf(response);
    expect(changed).toMatchObject({
      name: 'PURCHASE_MADE',
      description: 'Any purchase',
      isActive: false,
      omitFromUserActivity: true,
    });
    expect(changed).not.toHaveProperty('schema');
  });
});

// docs/events.md#event-types: "secret rotation 200 {secret}"
describe('POST /v1/event_types/{identifier}/secret', () => {
  it('replaces the secret of a private type and answers the new one', async () => {
    const before = await queryOne(harness, "select secret_hash from event_type where name = 'PURCHASE_MADE'");
    const response = await harness.request(tenant, 'POST', '/v1/event_types/PURCHASE_MADE/secret', { token: admin });
    expect(response.status).toBe(200);
    const { secret } = await dataOf<{ secret: string }>(response);
    expect(secret).toMatch(/^ets_/);
    const after = await queryOne(harness, "select secret_hash from event_type where name = 'PURCHASE_MADE'");
    expect(after.secret_hash).toBe(hashSecret(secret));
    expect(after.secret_hash).not.toBe(before.secret_hash);
  });
});
