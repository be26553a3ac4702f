import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, type Harness, type TestTenant, jsonOf } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:event_types']);
});
afterAll(() => harness.close());

const create = (body: unknown) => harness.request(tenant, 'POST', '/v1/event_types', { token: admin, body });

describe('creating event types: bad input', () => {
  // docs/events.md#event-types: "name … must match ^[A-Z]+(_[A-Z]+)*$"
  it.each(['lower', 'TRAILING_', '_LEADING', 'DOUBLE__UNDERSCORE', 'DIGIT1', ''])(
    'refuses the name %j with 400 ValidationError',
    async (name) => {
      const response = await create({ name, description: 'x', isPrivate: false });
      expect(response.status).toBe(400);
      expect(await jsonOf(response)).toMatchObject({ data: { name: 'ValidationError' } });
    },
  );

  it('refuses a missing description or isPrivate', async () => {
    const response = await create({ name: 'NO_FIELDS' });
    expect(response.status).toBe(400);
    const properties = (await jsonOf(response)).data.errors.map((issue: { property: string }) => issue.property).sort();
    expect(properties).toEqual(['description', 'isPrivate']);
  });

  // docs/events.md#payload-schemas: "a schema that does not compile, or uses remote $ref, is 400"
  // docs/api-conventions.md#errors: "Body validation elsewhere is 400 ValidationError."
  it('a schema that does not compile is 400 ValidationError naming the schema', async () => {
    const response = await create({
      name: 'BAD_SCHEMA',
      description: 'x',
      isPrivate: false,
      schema: { type: 'no-such-type' },
    });
    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({
      data: {
        name: 'ValidationError',
        message: expect.stringContaining('does not compile'),
        errors: [{ property: 'schema', children: [] }],
      },
    });
  });

  it('a schema with a remote $ref is 400, and nothing is fetched', async () => {
    for (const ref of ['https://example.com/schema.json', 'http://127.0.0.1:1/x.json', 'other.json#/defs/a']) {
      const response = await create({
        name: 'REMOTE_REF',
        description: 'x',
        isPrivate: false,
        schema: { type: 'object', properties: { a: { $ref: ref } } },
      });
      expect(response.status).toBe(400);
      expect((await jsonOf(response)).data).toMatchObject({
        name: 'ValidationError',
        message: expect.stringContaining('only local references'),
        errors: [{ property: 'schema' }],
      });
    }
  });

  it('a local $ref compiles', async () => {
    const response = await create({
      name: 'LOCAL_REF',
      description: 'x',
      isPrivate: false,
      schema: {
        type: 'object',
        $defs: { money: { type: 'number' } },
        properties: { total: { $ref: '#/$defs/money' } },
      },
    });
    expect(response.status).toBe(201);
  });

  it('a $schema that is neither draft-07 nor 2020-12 is 400', async () => {
    const response = await create({
      name: 'OLD_DRAFT',
      description: 'x',
      isPrivate: false,
      schema: { $schema: 'http://json-schema.org/draft-04/schema#' },
    });
    expect(response.status).toBe(400);
    expect((await jsonOf(response)).data).toMatchObject({ name: 'ValidationError', errors: [{ property: 'schema' }] });
  });

  it('a second type with the same name is 409 ConflictError', async () => {
    expect((await create({ name: 'TWICE', description: 'x', isPrivate: false })).status).toBe(201);
    const response = await create({ name: 'TWICE', description: 'y', isPrivate: true });
    expect(response.status).toBe(409);
    expect(await jsonOf(response)).toMatchObject({
      status: 'fail',
      data: { name: 'ConflictError', message: 'A record with the same name already exists' },
    });
  });
});

describe('changing event types: bad input', () => {
  // docs/events.md#event-types: "PATCH /v1/event_types/{identifier} (not name or isPrivate)"
  it('refuses a change of name or isPrivate with 400', async () => {
    for (const body of [{ name: 'RENAMED' }, { isPrivate: true }]) {
      const response = await harness.request(tenant, 'PATCH', '/v1/event_types/TWICE', { token: admin, body });
      expect(response.status).toBe(400);
      expect(await jsonOf(response)).toMatchObject({ data: { name: 'ValidationError' } });
    }
  });

  it('refuses a schema that does not compile', async () => {
    const response = await harness.request(tenant, 'PATCH', '/v1/event_types/TWICE', {
      token: admin,
      body: { schema: { type: 12 } },
    });
    expect(response.status).toBe(400);
    const unchanged = await dataOf(await harness.request(tenant, 'GET', '/v1/event_types/TWICE', { token: admin }));
    expect(unchanged).not.toHaveProperty('schema');
  });

  it('an unknown identifier is 404', async () => {
    for (const identifier of ['NOT_THERE', '00000000-0000-4000-8000-000000000000']) {
      const response = await harness.request(tenant, 'PATCH', `/v1/event_types/${identifier}`, {
        token: admin,
        body: { isActive: false },
      });
      expect(response.status).toBe(404);
    }
  });

  it('rotating the secret of a public type is 400', async () => {
    const response = await harness.request(tenant, 'POST', '/v1/event_types/TWICE/secret', { token: admin });
    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({ data: { name: 'BadRequestError' } });
  });
});
