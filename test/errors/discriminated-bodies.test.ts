import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dataOf, jsonOf, type Harness, type Json, type TestTenant } from '../support/harness.js';

let harness: Harness;
let tenant: TestTenant;
let admin: string;
let reactorId: string;

const points = { type: 'POINTS', points: { operation: 'SUM', arguments: [{ type: 'NUMBER', value: '1' }] } };
const reactor = (reaction: unknown) => ({ name: 'A point', eventType: 'ORDER_PLACED', reactions: [reaction] });
const argument = (value: unknown) => ({ type: 'POINTS', points: { operation: 'SUM', arguments: [value] } });

beforeAll(async () => {
  harness = await createHarness();
  tenant = await harness.createTenant();
  admin = await harness.adminToken(tenant, ['admin:reactors', 'admin:receipts', 'admin:rewards']);
  const created = await harness.request(tenant, 'POST', '/v1/reactors', { token: admin, body: reactor(points) });
  reactorId = (await dataOf<{ id: string }>(created)).id;
});
afterAll(() => harness.close());

/** The 400's `data.errors`, each reduced to its property and constraints. */
async function refusal(method: string, path: string, body: unknown): Promise<Json[]> {
  const response = await harness.request(tenant, method, path, { token: admin, body });
  expect(response.status).toBe(400);
  const envelope = await jsonOf(response);
  expect(envelope.data.name).toBe('ValidationError');
  return envelope.data.errors.map((issue: Json) => ({ property: issue.property, constraints: issue.constraints }));
}

// docs/api-conventions.md#request-bodies: "A body that chooses between shapes by one field (a
// discriminator) is checked against the shape that field picks".
describe.each([
  ['POST', () => '/v1/reactors', (reaction: unknown) => reactor(reaction)],
  ['PATCH', () => `/v1/reactors/${reactorId}`, (reaction: unknown) => ({ reactions: [reaction] })],
])('%s a reactor: reactions by `type`', (method, path, body) => {
  it('a reaction without its type is told the types there are, and nothing about either shape', async () => {
    expect(await refusal(method, path(), body({ points: points.points }))).toEqual([
      {
        property: 'reactions.0.type',
        constraints: { required: 'reactions.0.type is required: one of POINTS, WEBHOOK, VOUCHER' },
      },
    ]);
  });

  it('a reaction of an unknown type is told the types there are', async () => {
    expect(await refusal(method, path(), body({ type: 'TIER', tierId: 't-1' }))).toEqual([
      {
        property: 'reactions.0.type',
        constraints: { enum: 'reactions.0.type must be one of POINTS, WEBHOOK, VOUCHER' },
      },
    ]);
  });

  it('a POINTS reaction with a bad field is told about that field alone, never of webhookId', async () => {
    const wrong = { type: 'POINTS', points: { operation: 'ADD', arguments: points.points.arguments } };
    expect(await refusal(method, path(), body(wrong))).toEqual([
      {
        property: 'reactions.0.points.operation',
        constraints: { enum: 'reactions.0.points.operation must be one of SUM, MULTIPLY, MIN, MAX' },
      },
    ]);
  });

  it('a VOUCHER reaction with a reward id that is no uuid is told about that field alone', async () => {
    expect(await refusal(method, path(), body({ type: 'VOUCHER', rewardId: 'r-1' }))).toEqual([
      { property: 'reactions.0.rewardId', constraints: { format: expect.stringContaining('reactions.0.rewardId') } },
    ]);
  });

  it('a WEBHOOK reaction with a POINTS field is told that field is not a WEBHOOK one', async () => {
    const wrong = { type: 'WEBHOOK', webhookId: '6f1c1c5e-7f0c-4a8e-9d55-3b2f7c1e2a10', points: points.points };
    expect(await refusal(method, path(), body(wrong))).toEqual([
      {
        property: 'reactions.0.points',
        constraints: { additionalProperties: 'reactions.0.points is not an accepted field' },
      },
    ]);
  });

  it('a points argument is checked by its own type, at each depth', async () => {
    expect(await refusal(method, path(), body(argument({ value: '1' })))).toEqual([
      {
        property: 'reactions.0.points.arguments.0.type',
        constraints: { required: 'reactions.0.points.arguments.0.type is required: one of NUMBER, PATH, EXPRESSION' },
      },
    ]);
    expect(await refusal(method, path(), body(argument({ type: 'CONSTANT', value: '1' })))).toEqual([
      {
        property: 'reactions.0.points.arguments.0.type',
        constraints: { enum: 'reactions.0.points.arguments.0.type must be one of NUMBER, PATH, EXPRESSION' },
      },
    ]);
    const nested = { type: 'EXPRESSION', value: { operation: 'MAX', arguments: [{ type: 'PATH', value: 'total' }] } };
    expect(await refusal(method, path(), body(argument(nested)))).toEqual([
      {
        property: 'reactions.0.points.arguments.0.value.arguments.0.value',
        constraints: { pattern: 'reactions.0.points.arguments.0.value.arguments.0.value must match pattern "^\\$"' },
      },
    ]);
  });
});

describe('POST /v1/receipts: a claim by `useParser`', () => {
  const preparsed = { ocrConfidence: 0.9, lineItems: [], total: { value: '12.50', confidence: 0.9 } };

  it('a claim without useParser is told the two values, not the fields of both modes', async () => {
    expect(await refusal('POST', '/v1/receipts', { pictureUrl: 'https://receipts.example/1.png' })).toEqual([
      { property: 'useParser', constraints: { required: 'useParser is required: one of true, false' } },
    ]);
  });

  it('a claim whose useParser is no boolean is told the two values', async () => {
    expect(await refusal('POST', '/v1/receipts', { useParser: 'yes', ...preparsed })).toEqual([
      { property: 'useParser', constraints: { enum: 'useParser must be one of true, false' } },
    ]);
  });

  it('a preparsed claim lacking its confidence is told that, and nothing of the image mode', async () => {
    const { ocrConfidence: _omitted, ...withoutConfidence } = preparsed;
    expect(await refusal('POST', '/v1/receipts', { useParser: false, ...withoutConfidence })).toEqual([
      { property: 'ocrConfidence', constraints: { required: 'ocrConfidence is required' } },
    ]);
  });

  it('an image claim carrying preparsed fields is told they are not image-claim fields', async () => {
    const errors = await refusal('POST', '/v1/receipts', {
      useParser: true,
      pictureUrl: 'https://r.example/1.png',
      ...preparsed,
    });
    expect(errors.map((error) => error.property).sort()).toEqual(['lineItems', 'ocrConfidence', 'total']);
    expect(errors.every((error) => 'additionalProperties' in error.constraints)).toBe(true);
  });
});

// docs/rewards.md#purchases: an admin names the member "by exactly one of its identifiers, saying
// which: `{id}`, `{authIdentifier}` or `{accountNumber}`".
describe('POST /v1/purchases: the subject by which identifier it holds', () => {
  const buy = (subject: unknown) => ({
    resource: { type: 'REWARD', id: '0f1e2d3c-4b5a-4697-8877-665544332211' },
    subject,
  });

  it.each([
    ['no identifier', {}, 'subject', 'minProperties'],
    ['an unknown identifier', { email: 'a@example.test' }, 'subject.email', 'additionalProperties'],
    ['two identifiers', { id: '3b2a1c0d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', accountNumber: 7 }, 'subject', 'maxProperties'],
    ['an identifier of the wrong type', { accountNumber: 'seven' }, 'subject.accountNumber', 'type'],
  ])('%s is told that alone', async (_case, subject, property, rule) => {
    const issues = await refusal('POST', '/v1/purchases', buy(subject));
    expect(issues).toEqual([{ property, constraints: { [rule]: expect.any(String) } }]);
  });
});

describe('every union in a request body', () => {
  it('names its expected values: a literal union as "must be one of", a nullable value as "X or null"', async () => {
    const ruleSet = {
      isActive: true,
      name: 7,
      ruleDefinitions: [{ type: 'SQL', name: 'r', priority: 1, resultParams: { success: [], failure: [] } }],
    };
    const response = await harness.request(tenant, 'POST', '/v1/transactions-rule-engine/rule-sets', {
      token: await harness.adminToken(tenant, ['admin:rules']),
      body: ruleSet,
    });
    const envelope = await jsonOf(response);
    expect(envelope.data.errors.map((issue: Json) => issue.constraints)).toEqual([
      { type: 'name must be string or null' },
      { enum: 'ruleDefinitions.0.type must be one of CUSTOM, BASKET' },
    ]);
    expect(envelope.message).toBe(
      'Invalid body: name must be string or null; ruleDefinitions.0.type must be one of CUSTOM, BASKET',
    );
  });

  it('that chooses its shape by a field is one of those tested above', async () => {
    const api = fileURLToPath(new URL('../../api/', import.meta.url));
    const discriminated: string[] = [];
    for (const feature of readdirSync(api)) {
      if (!existsSync(join(api, feature, 'schema.ts'))) continue;
      const exports = (await import(join(api, feature, 'schema.ts'))) as Record<string, unknown>;
      for (const [name, schema] of Object.entries(exports)) {
        if (name.endsWith('Body') && holdsUnionOfObjects(schema)) discriminated.push(`${feature}.${name}`);
      }
    }
    expect(discriminated.sort()).toEqual([
      'reactors.CreateReactorBody',
      'reactors.UpdateReactorBody',
      'receipts.ClaimBody',
    ]);
  });
});

function holdsUnionOfObjects(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { anyOf } = schema as { anyOf?: unknown };
  if (Array.isArray(anyOf) && anyOf.filter((branch: Json) => branch?.type === 'object').length > 1) return true;
  return Object.values(schema).some(holdsUnionOfObjects);
}
