import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/platform/auth/scopes.js';
import { createHarness, type Harness, type Json } from '../support/harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness();
});
afterAll(() => harness.close());

const longest = (letter: string) => letter.repeat(256);

// docs/api-conventions.md#request-bodies: a value within the bounds a body's schema states is
// accepted. These fields allow 256 characters; their columns held 255, so the longest value
// passed validation and then failed in PostgreSQL.
describe('text fields at their longest', () => {
  it.each<[string, string, Scope, Json]>([
    [
      'a member authIdentifier and externalIdentifier',
      '/v1/users',
      'admin:users',
      {
        isRestricted: false,
        authIdentifier: longest('a'),
        externalIdentifier: longest('e'),
        profile: { givenName: 'A', familyName: 'B', emailAddress: 'a@example.org' },
      },
    ],
    ['a product name', '/v1/products', 'admin:rules', { name: longest('p'), identifiers: ['SKU-1'], unitPrice: 1 }],
    ['a venue name', '/v1/venues', 'admin:rules', { name: longest('v'), identifiers: ['STORE-1'] }],
    ['a reward name', '/v1/rewards', 'admin:rewards', { type: 'VOUCHER', name: longest('r'), price: 10, cost: 1 }],
    [
      'a rule set name',
      '/v1/transactions-rule-engine/rule-sets',
      'admin:rules',
      { name: longest('s'), isActive: false, ruleDefinitions: [] },
    ],
  ])('%s of 256 characters is stored', async (_field, path, scope, body) => {
    const tenant = await harness.createTenant();
    const token = await harness.adminToken(tenant, [scope]);

    const response = await harness.request(tenant, 'POST', path, { token, body });

    expect(response.status, await response.clone().text()).toBe(201);
  });
});
